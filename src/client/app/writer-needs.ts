/**
 * What a writer needs is on the device after one online visit of any page, not only after the
 * editor was opened: the channels the composer offers and the ones the user follows, the topics
 * it suggests, and the complaint reasons. Read in the background once someone is logged in
 * (app/AppShell.tsx), kept in the persisted cache, so writing works offline, after a restart too.
 * Fresh copies are not read again.
 */
import type { QueryClient } from '@tanstack/react-query';
import { channelCategoriesQueryOptions, followedChannelsQueryOptions } from '../entities/channel/queries.ts';
import { topicListQueryOptions } from '../entities/topic/queries.ts';
import { complainReasonsQueryOptions } from '../features/complain/queries.ts';
import { useOnlineStore } from '../platform/online-store.ts';

/** How old a kept copy may be before it is read again. */
const WRITER_NEEDS_STALE_MS = 10 * 60_000;

export function readWriterNeeds(queryClient: QueryClient, uid: number): void {
  if (!useOnlineStore.getState().online) return;
  const fresh = { staleTime: WRITER_NEEDS_STALE_MS };
  void queryClient.prefetchQuery({ ...channelCategoriesQueryOptions(), ...fresh });
  void queryClient.prefetchQuery({ ...followedChannelsQueryOptions(uid), ...fresh });
  void queryClient.prefetchQuery({ ...complainReasonsQueryOptions(), ...fresh });
  void queryClient.prefetchInfiniteQuery({ ...topicListQueryOptions(), ...fresh });
}
