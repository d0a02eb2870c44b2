/** /topic/list (话题列表) and /topic/comment/$id (话题主页, with an app deep link). */
import { createRoute } from '@tanstack/react-router';
import { loadChunk } from '../lib/chunk.ts';
import { rootRoute } from './root.tsx';

export const topicListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/topic/list',
  staticData: { title: '话题列表', heading: '话题列表' },
  loader: (ctx) => loadChunk(() => import('./topic.lazy.tsx')).then((page) => page.loadTopicList(ctx)),
}).lazy(() => import('./topic.lazy.tsx').then((m) => m.topicListLazyRoute));

export const topicHomeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/topic/comment/$id',
  staticData: { title: '话题主页', heading: '话题主页', gone: '这个话题不存在' },
  loader: (ctx) => loadChunk(() => import('./topic.lazy.tsx')).then((page) => page.loadTopicHome(ctx)),
}).lazy(() => import('./topic.lazy.tsx').then((m) => m.topicHomeLazyRoute));
