/**
 * Changing a channel everywhere it is shown: its page, the directory, and the viewer's followed
 * channels (the channel is added to or taken from that list by its channel_id, not read again).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Channel, ChannelCategory, ChannelDetail } from '#shared/schemas.ts';
import { channelKeys } from './queries.ts';

/** Applies `fn` to channel `channelId` on its page and in the directory. */
export function updateChannel(queryClient: QueryClient, channelId: number, fn: (channel: ChannelDetail) => ChannelDetail): void {
  queryClient.setQueryData<ChannelDetail>(channelKeys.detail(channelId), (channel) => channel && fn(channel));
  queryClient.setQueryData<ChannelCategory[]>(channelKeys.categories, (categories) =>
    categories?.map((category) =>
      category.list.some((channel) => channel.channel_id === channelId)
        ? { ...category, list: category.list.map((channel) => (channel.channel_id === channelId ? fn(channel) : channel)) }
        : category,
    ),
  );
}

/** User `uid` (the viewer) now follows `channel`, or not: their followed list, its 关注 state and follower count. */
export function setChannelFollowed(queryClient: QueryClient, uid: number, channel: Channel, isFollow: boolean): void {
  queryClient.setQueryData<Channel[]>(channelKeys.followed(uid), (list) => {
    if (!list || list.some((c) => c.channel_id === channel.channel_id) === isFollow) return list;
    const without = list.filter((c) => c.channel_id !== channel.channel_id);
    return isFollow ? [...without, { channel_id: channel.channel_id, channel_name: channel.channel_name }] : without;
  });
  updateChannel(queryClient, channel.channel_id, (detail) =>
    detail.is_follow === isFollow
      ? detail
      : { ...detail, is_follow: isFollow, follower_count: Math.max(0, detail.follower_count + (isFollow ? 1 : -1)) },
  );
}
