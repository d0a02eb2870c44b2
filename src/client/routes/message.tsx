/** /message/detail/$id (post detail, kept alive) and /message/detail/poster/$id (动态详情). */
import { createRoute } from '@tanstack/react-router';
import { postDetailQueryOptions } from '../entities/post/queries.ts';
import { commentsQueryOptions } from '../features/post/queries.ts';
import { parseId } from './params.ts';
import { rootRoute } from './root.tsx';

export const messageDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/message/detail/$id',
  staticData: { heading: '动态详情' },
  loader: async ({ context, params }) => {
    const postId = parseId(params.id);
    void context.queryClient.prefetchInfiniteQuery(commentsQueryOptions(postId));
    await context.queryClient.ensureQueryData(postDetailQueryOptions(postId));
  },
}).lazy(() => import('./message.lazy.tsx').then((m) => m.messageDetailLazyRoute));

export const messagePosterRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/message/detail/poster/$id',
  staticData: { title: '动态详情', heading: '动态详情' },
  loader: async ({ context, params }) => {
    await context.queryClient.ensureQueryData(postDetailQueryOptions(parseId(params.id)));
  },
}).lazy(() => import('./message.lazy.tsx').then((m) => m.messagePosterLazyRoute));
