import type { QueryClient } from '@tanstack/react-query';
import { startOutbox } from '../../entities/outbox/index.ts';
import { listedPosts } from '../../entities/post/queries.ts';
import { adoptStoredFirstFeedPage, keepFirstFeedPage } from '../../entities/post/first-feed-page.ts';
import { knownViewer } from '../../entities/session/queries.ts';
import { cardsReady } from '../../features/feed/post-parts.ts';
import { persistQueryCache } from '../../lib/query-cache-persister.ts';
import { adoptFirstReads } from '../first-read.ts';

/** Bump to drop caches persisted by an incompatible version. */
const CACHE_BUSTER = 'v1';

/**
 * What the first screen shows, in the cache before it renders. It renders at once from what the
 * page carries (a first visit: /home's feed, a post, a profile and its first posts; a start of
 * /home: the page the service worker kept) or, on /home, from the first page the last visit
 * stored (offline too), and what an earlier visit kept is restored once that screen is up (read
 * alongside, it slowed the screen down as much as it saved): `restoreLater` says so. Without
 * either, the screen shows what the last visit saw, so this waits for the restore.
 * `cardsShown` settles once the code of the cards it shows is in.
 */
export async function adoptFirstScreenData(queryClient: QueryClient) {
  keepFirstFeedPage(queryClient);
  const { pathname } = window.location;
  const carried = adoptFirstReads(queryClient, pathname);
  // After what the page carried: a kept page's feed gives way to a newer one this device stored.
  const stored = adoptStoredFirstFeedPage(queryClient, pathname);
  const restoreLater = carried || stored;
  const restore = () => persistQueryCache(queryClient, { buster: CACHE_BUSTER, viewer: () => knownViewer(queryClient) }).then(() => startOutbox(queryClient));
  if (!restoreLater) await restore();
  // The cards the first render shows are whole from the start, as the server's first screen has
  // them (the code they need, if any, comes beside the page's own).
  const cardsShown = cardsReady(listedPosts(queryClient));
  return { restore, restoreLater, cardsShown };
}
