/**
 * Channels: one channel, every channel by category, and the channels a user follows (the
 * sidebar's 关注 children). The only source of these query keys.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Channel, ChannelCategory, ChannelDetail } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';

export const channelKeys = {
  all: ['channels'] as const,
  detail: (channelId: number) => ['channels', 'detail', channelId] as const,
  categories: ['channels', 'categories'] as const,
  /** The login user's own followed channels (the sidebar, the composer, 关注): theirs alone, kept only while they are logged in. */
  followedByAnyone: ['channels', 'followed'] as const,
  followed: (uid: number) => ['channels', 'followed', uid] as const,
  /** What another user's centre shows under 频道: a public read, kept for offline reading like the others. */
  ofUser: (uid: number) => ['channels', 'of-user', uid] as const,
};

export function channelDetailQueryOptions(channelId: number) {
  return queryOptions({
    queryKey: channelKeys.detail(channelId),
    queryFn: ({ signal }): Promise<ChannelDetail> => request(endpoints.channelDetail, { channel_id: channelId }, { signal }),
  });
}

export function channelCategoriesQueryOptions() {
  return queryOptions({
    queryKey: channelKeys.categories,
    queryFn: async ({ signal }): Promise<ChannelCategory[]> => (await request(endpoints.categoryChannel, {}, { signal })).list,
    staleTime: 10 * 60_000,
  });
}

/**
 * A channel's page never read (offline, say) starts from the directory's copy of it, which the
 * app keeps for writing: its name, its 关注 and counts show, and the page reads itself when it can.
 */
export function startFromDirectory(queryClient: QueryClient, channelId: number): void {
  if (queryClient.getQueryData(channelKeys.detail(channelId))) return;
  const channel = queryClient
    .getQueryData<ChannelCategory[]>(channelKeys.categories)
    ?.flatMap((category) => category.list)
    .find((listed) => listed.channel_id === channelId);
  if (channel) queryClient.setQueryData(channelKeys.detail(channelId), channel, { updatedAt: queryClient.getQueryState(channelKeys.categories)?.dataUpdatedAt });
}

/** The channels user `uid` follows, in the order followed. */
export function followedChannelsQueryOptions(uid: number) {
  return queryOptions({
    queryKey: channelKeys.followed(uid),
    queryFn: async ({ signal }): Promise<Channel[]> =>
      (await request(endpoints.userChannelList, { source: 1, visit_user_id: uid }, { signal })).list,
    meta: { silent: true, ownedBy: uid },
  });
}

/** The channels someone else follows, as their centre's 频道 tab shows them (one's own: followedChannelsQueryOptions). */
export function userChannelsQueryOptions(uid: number) {
  return queryOptions({
    queryKey: channelKeys.ofUser(uid),
    queryFn: async ({ signal }): Promise<Channel[]> =>
      (await request(endpoints.userChannelList, { source: 1, visit_user_id: uid }, { signal })).list,
  });
}
