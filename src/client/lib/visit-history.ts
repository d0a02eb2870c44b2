/**
 * The per-session history of visited full paths, so a back button knows whether there is a page
 * of this app to go back to: new visits are added, back navigation trims, kept in sessionStorage
 * so a reload keeps it.
 */
import { create } from 'zustand';

export const VISIT_HISTORY_KEY = 'horde:visit-history'; // horde: src/client/README.md ('horde')
export const VISIT_HISTORY_MAX = 50;

export type VisitAction = 'INIT' | 'PUSH' | 'REPLACE' | 'BACK' | 'FORWARD' | 'GO';

/**
 * The next history after visiting `path` through `action` (`delta` for GO):
 * - INIT (page load): add the path unless it is already the last entry (a reload);
 * - PUSH / FORWARD / GO forward: add it (not twice in a row);
 * - REPLACE: the path takes the last entry's place;
 * - BACK / GO back: trim everything after the path's latest earlier visit; when the path
 *   was never recorded (history from before this session), it replaces the last entry.
 */
export function nextVisitHistory(
  entries: readonly string[],
  path: string,
  action: VisitAction,
  delta = 0,
  max = VISIT_HISTORY_MAX,
): string[] {
  const last = entries[entries.length - 1];
  const add = (): string[] => (last === path ? [...entries] : [...entries, path]).slice(-max);
  const goesBack = action === 'BACK' || (action === 'GO' && delta < 0);
  if (goesBack) {
    const steps = action === 'BACK' ? 1 : -delta;
    const target = entries.length - 1 - steps;
    if (target >= 0 && entries[target] === path) return entries.slice(0, target + 1);
    const earlier = entries.lastIndexOf(path, entries.length - 2);
    if (earlier >= 0) return entries.slice(0, earlier + 1);
    return [...entries.slice(0, -1), path];
  }
  switch (action) {
    case 'REPLACE':
      return [...entries.slice(0, -1), path];
    default:
      return add();
  }
}

function readStored(): string[] {
  try {
    const raw = sessionStorage.getItem(VISIT_HISTORY_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

function store(entries: string[]): void {
  try {
    sessionStorage.setItem(VISIT_HISTORY_KEY, JSON.stringify(entries));
  } catch {
    // Storage full or blocked: the in-memory history still works.
  }
}

interface VisitHistoryState {
  entries: string[];
  record: (path: string, action: VisitAction, delta?: number) => void;
  /** Reloads from sessionStorage (tests, or another module wrote it). */
  hydrate: () => void;
}

export const useVisitHistoryStore = create<VisitHistoryState>()((set, get) => ({
  entries: readStored(),
  record(path, action, delta) {
    const entries = nextVisitHistory(get().entries, path, action, delta);
    store(entries);
    set({ entries });
  },
  hydrate: () => set({ entries: readStored() }),
}));

/** Whether there is an earlier page of this session to go back to. */
export function canGoBackInSession(): boolean {
  return useVisitHistoryStore.getState().entries.length > 1;
}

/** The minimal history shape we listen to (TanStack's RouterHistory has it). */
export interface HistoryLike {
  location: { pathname: string; search: string; hash: string };
  subscribe: (
    listener: (event: {
      location: { pathname: string; search: string; hash: string };
      action: { type: 'PUSH' | 'REPLACE' | 'BACK' | 'FORWARD' } | { type: 'GO'; index: number };
    }) => void,
  ) => () => void;
}

const fullPathOf = (location: { pathname: string; search: string; hash: string }) =>
  `${location.pathname}${location.search}${location.hash}`;

/** Records the current page, then every navigation. Returns the unsubscribe. */
export function trackVisitHistory(history: HistoryLike): () => void {
  const { record } = useVisitHistoryStore.getState();
  record(fullPathOf(history.location), 'INIT');
  return history.subscribe(({ location, action }) => {
    record(fullPathOf(location), action.type, action.type === 'GO' ? action.index : 0);
  });
}
