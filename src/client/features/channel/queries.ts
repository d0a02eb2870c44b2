/** Channels (/channel/list/$id, /invite/channelList). The only source of these query keys. */
import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { ChannelCategory, ChannelDetail } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';

export const channelKeys = {
  all: ['channel'] as const,
  detail: (channelId: number) => ['channel', channelId] as const,
  categories: ['channel', 'categories'] as const,
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
