/** /topic/list (话题列表) and /topic/comment/$id (话题主页, with an app deep link). */
import { createRoute } from '@tanstack/react-router';
import { topicPostsQueryOptions } from '../entities/post/queries.ts';
import { topicDetailQueryOptions, topicListQueryOptions } from '../features/topic/queries.ts';
import { parseId } from './params.ts';
import { rootRoute } from './root.tsx';

export const topicListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/topic/list',
  staticData: { title: '话题列表', heading: '话题列表' },
  loader: async ({ context }) => {
    await context.queryClient.ensureInfiniteQueryData(topicListQueryOptions());
  },
}).lazy(() => import('./topic.lazy.tsx').then((m) => m.topicListLazyRoute));

export const topicHomeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/topic/comment/$id',
  staticData: { title: '话题主页', heading: '话题主页' },
  loader: async ({ context, params }) => {
    const topicId = parseId(params.id);
    void context.queryClient.prefetchInfiniteQuery(topicPostsQueryOptions(topicId));
    await context.queryClient.ensureQueryData(topicDetailQueryOptions(topicId));
  },
}).lazy(() => import('./topic.lazy.tsx').then((m) => m.topicHomeLazyRoute));
