/** /channel/list/$id: one channel and its posts; /invite/channelList: every channel. */
import { createRoute } from '@tanstack/react-router';
import { channelCategoriesQueryOptions, channelDetailQueryOptions, startFromDirectory } from '../entities/channel/queries.ts';
import { feedQueryOptions } from '../entities/post/queries.ts';
import { parseId } from './params.ts';
import { rootRoute } from './root.tsx';

export const channelListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/channel/list/$id',
  staticData: { heading: '频道', gone: '这个频道不存在' },
  loader: async ({ context, params }) => {
    const channelId = parseId(params.id);
    void context.queryClient.prefetchInfiniteQuery(feedQueryOptions({ channelId }));
    startFromDirectory(context.queryClient, channelId);
    await context.queryClient.ensureQueryData(channelDetailQueryOptions(channelId));
  },
}).lazy(() => import('./channel.lazy.tsx').then((m) => m.channelListLazyRoute));

export const inviteChannelListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite/channelList',
  staticData: { heading: '频道列表' },
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(channelCategoriesQueryOptions());
  },
}).lazy(() => import('./channel.lazy.tsx').then((m) => m.inviteChannelListLazyRoute));
