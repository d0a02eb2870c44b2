/**
 * What a writer needs is on the device after one online visit of any page, not only after the
 * editor was opened: the channels the composer offers and the ones the user follows, the topics
 * it suggests, and the complaint reasons. Read in the background once the first screen is up
 * and someone is logged in (again at a login), kept in the persisted cache, so writing works
 * offline, after a restart too. Fresh copies are not read again.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { LoginUser } from '#shared/schemas.ts';
import { channelCategoriesQueryOptions, followedChannelsQueryOptions } from '../entities/channel/queries.ts';
import { sessionKeys } from '../entities/session/queries.ts';
import { topicListQueryOptions } from '../entities/topic/queries.ts';
import { complainReasonsQueryOptions } from '../features/complain/queries.ts';
import { useOnlineStore } from '../platform/online-store.ts';

/** How old a kept copy may be before a start reads it again. */
const WRITER_NEEDS_STALE_MS = 10 * 60_000;

function readWriterNeeds(queryClient: QueryClient, user: LoginUser): void {
  if (!useOnlineStore.getState().online) return;
  const fresh = { staleTime: WRITER_NEEDS_STALE_MS };
  void queryClient.prefetchQuery({ ...channelCategoriesQueryOptions(), ...fresh });
  void queryClient.prefetchQuery({ ...followedChannelsQueryOptions(user.uid), ...fresh });
  void queryClient.prefetchQuery({ ...complainReasonsQueryOptions(), ...fresh });
  void queryClient.prefetchInfiniteQuery({ ...topicListQueryOptions(), ...fresh });
}

/** Reads them now if someone is logged in, and at every login after. */
export function keepWriterNeeds(queryClient: QueryClient): void {
  const now = queryClient.getQueryData<LoginUser | null>(sessionKeys.user);
  if (now) readWriterNeeds(queryClient, now);
  let last = now?.uid;
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const [root, part] = event.query.queryKey;
    if (root !== sessionKeys.all[0] || part !== sessionKeys.user[1]) return;
    const user = queryClient.getQueryData<LoginUser | null>(sessionKeys.user);
    if (user && user.uid !== last) readWriterNeeds(queryClient, user);
    last = user?.uid;
  });
}
