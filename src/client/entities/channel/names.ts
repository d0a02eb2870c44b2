/** Channel names from whatever the cache holds, for writes that wait (a post's channels in the outbox). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Channel, ChannelDetail } from '#shared/schemas.ts';
import { channelCategoriesQueryOptions, channelKeys } from './queries.ts';

/**
 * The names of channels `ids`, as the composer listed them: the directory (read if stale, kept
 * offline), then any cached followed list or channel page. An id found nowhere is left out.
 */
export function useChannelNames(ids: readonly number[]): { channel_id: number; channel_name: string }[] {
  const queryClient = useQueryClient();
  const directory = useQuery({ ...channelCategoriesQueryOptions(), meta: { silent: true } }).data;
  return ids.flatMap((id) => {
    const listed =
      directory?.flatMap((category) => category.list).find((channel) => channel.channel_id === id) ??
      queryClient
        .getQueriesData<Channel[]>({ queryKey: channelKeys.followedByAnyone })
        .flatMap(([, list]) => list ?? [])
        .find((channel) => channel.channel_id === id) ??
      queryClient.getQueryData<ChannelDetail>(channelKeys.detail(id));
    return listed ? [{ channel_id: id, channel_name: listed.channel_name }] : [];
  });
}
