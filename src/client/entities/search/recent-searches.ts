/**
 * The searches made on this device, newest first, at most RECENT_SEARCHES_MAX, in localStorage.
 * What someone searched for is theirs: logout clears it (session-cache.ts, forget-searches.ts).
 */
import { create } from 'zustand';
import { clearRecentSearches, RECENT_SEARCHES_CHANGED, RECENT_SEARCHES_KEY } from './forget-searches.ts';

export { clearRecentSearches, RECENT_SEARCHES_KEY };
export const RECENT_SEARCHES_MAX = 10;

function read(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(RECENT_SEARCHES_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string').slice(0, RECENT_SEARCHES_MAX) : [];
  } catch {
    return [];
  }
}

export const useRecentSearches = create<{ items: string[] }>()(() => ({ items: read() }));

/** `q` leads the list (once: an earlier copy moves up). */
export function rememberSearch(q: string): void {
  if (!q) return;
  const items = [q, ...read().filter((item) => item !== q)].slice(0, RECENT_SEARCHES_MAX);
  try {
    localStorage.setItem(RECENT_SEARCHES_KEY, JSON.stringify(items));
  } catch {
    // No storage (private mode): the list lives as long as the page.
  }
  useRecentSearches.setState({ items });
}

// Cleared here (清除, a logout) or in another tab: the list shown follows.
const reread = (): void => useRecentSearches.setState({ items: read() });
window.addEventListener(RECENT_SEARCHES_CHANGED, reread);
window.addEventListener('storage', (event) => {
  if (event.key === RECENT_SEARCHES_KEY || event.key === null) reread();
});
