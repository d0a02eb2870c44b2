/**
 * The feed's first page before anything else is read, so /home's posts never wait behind the
 * persisted cache's IndexedDB restore:
 * - a first visit's page carries it (src/shared/first-screen.ts), put by app/first-read.ts;
 * - a later start (the service worker's page, offline too) shows what the last visit saw: the
 *   first page is kept in localStorage as the feed changes (keepFirstFeedPage), and read back
 *   synchronously before the first render (adoptStoredFirstFeedPage), while the whole cache is
 *   restored alongside. Only the first page: it is all a start shows, and small (10 posts).
 */
import { hashKey, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { FIRST_FEED_PAGE_INPUT, FIRST_FEED_PAGE_PATHS } from '#shared/first-screen.ts';
import type { Paged, Post } from '#shared/schemas.ts';
import { PERSIST_MAX_AGE_MS } from '../../lib/query-client.ts';
import { feedQueryOptions } from './queries.ts';

/** The localStorage key; a new version of what is stored gets a new key. */
export const STORED_FIRST_FEED_PAGE_KEY = 'horde:first-feed-page:v1'; // horde: src/client/README.md ('horde')

interface StoredFirstFeedPage {
  /** When the page was fetched (the query's dataUpdatedAt). */
  savedAt: number;
  page: Paged<Post>;
}

const homeFeed = () => feedQueryOptions({ tab: FIRST_FEED_PAGE_INPUT.tab });

/** Puts /home's first page in the cache, as its first fetch would (the server's render of the first screen too); returns the feed's key. */
export function putFirstFeedPage(queryClient: QueryClient, page: Paged<Post>, updatedAt?: number): QueryKey {
  const { queryKey } = homeFeed();
  queryClient.setQueryData(queryKey, { pages: [page], pageParams: [FIRST_FEED_PAGE_INPUT.index] }, { updatedAt });
  return queryKey;
}

/**
 * On a page that shows /home's feed first: puts the first page the last visit kept (at most
 * PERSIST_MAX_AGE_MS old, as the persisted cache) in the cache, with the time it was fetched
 * and marked for a refetch once shown (like everything restored), unless the cache holds a newer
 * one (a first visit's page carries the feed as of now; a page the service worker kept, as of
 * when it kept it). true when it did.
 */
export function adoptStoredFirstFeedPage(queryClient: QueryClient, pathname: string): boolean {
  if (!FIRST_FEED_PAGE_PATHS.includes(pathname)) return false;
  try {
    const stored = JSON.parse(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY) ?? 'null') as StoredFirstFeedPage | null;
    if (!stored || !Array.isArray(stored.page?.list) || typeof stored.savedAt !== 'number') return false;
    if (stored.savedAt <= Date.now() - PERSIST_MAX_AGE_MS) return false;
    const held = queryClient.getQueryState(homeFeed().queryKey);
    if (held?.data !== undefined && held.dataUpdatedAt >= stored.savedAt) return false;
    putFirstFeedPage(queryClient, stored.page, stored.savedAt);
    void queryClient.invalidateQueries({ queryKey: homeFeed().queryKey, exact: true, refetchType: 'none' });
    return true;
  } catch {
    // No storage (a private window) or something unreadable: the start waits for the restore.
    return false;
  }
}

/**
 * Keeps /home's first feed page in localStorage as it changes, never over a newer one (an old
 * copy put in the cache, to be fetched again, is no news); gone with the query.
 */
export function keepFirstFeedPage(queryClient: QueryClient): () => void {
  const queryHash = hashKey(homeFeed().queryKey);
  let kept: Paged<Post> | undefined;
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.query.queryHash !== queryHash) return;
    try {
      if (event.type === 'removed') {
        kept = undefined;
        localStorage.removeItem(STORED_FIRST_FEED_PAGE_KEY);
        return;
      }
      const { data, dataUpdatedAt, status } = event.query.state as { data?: InfiniteData<Paged<Post>>; dataUpdatedAt: number; status: string };
      const first = data?.pages[0];
      if (status !== 'success' || !first || first === kept) return;
      kept = first;
      const previous = JSON.parse(localStorage.getItem(STORED_FIRST_FEED_PAGE_KEY) ?? 'null') as StoredFirstFeedPage | null;
      if (typeof previous?.savedAt === 'number' && previous.savedAt > dataUpdatedAt) return;
      const stored: StoredFirstFeedPage = { savedAt: dataUpdatedAt, page: first };
      localStorage.setItem(STORED_FIRST_FEED_PAGE_KEY, JSON.stringify(stored));
    } catch {
      // A full or missing localStorage costs only the quick start.
    }
  });
}

/** Drops the kept first page (a logout: it was read as the user who leaves). */
export function forgetFirstFeedPage(): void {
  try {
    localStorage.removeItem(STORED_FIRST_FEED_PAGE_KEY);
  } catch {
    // Nothing kept without storage.
  }
}
