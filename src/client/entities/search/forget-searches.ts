/**
 * The device's recent searches are forgotten at logout (session-cache.ts), which every visit
 * carries: this much only, the list itself comes with the search page (recent-searches.ts).
 */
export const RECENT_SEARCHES_KEY = 'horde:recent-searches'; // horde: src/client/README.md ('horde')
/** Told to this tab's list when they are forgotten (another tab hears the storage event). */
export const RECENT_SEARCHES_CHANGED = 'horde:recent-searches-changed';

export function clearRecentSearches(): void {
  try {
    localStorage.removeItem(RECENT_SEARCHES_KEY);
  } catch {
    // No storage: nothing was kept.
  }
  window.dispatchEvent(new Event(RECENT_SEARCHES_CHANGED));
}
