/** /message/detail/$id (post detail, kept alive) and /message/detail/poster/$id (动态详情). */
import { createRoute } from '@tanstack/react-router';
import { loadChunk } from '../lib/chunk.ts';
import { optionalId } from './params.ts';
import { rootRoute } from './root.tsx';

export const messageDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/message/detail/$id',
  staticData: { heading: '动态详情', gone: '这条动态已被删除' },
  // ?comment=: a comment to scroll to (a notice opens the post there).
  validateSearch: (search: Record<string, unknown>): { comment?: number | undefined } => ({ comment: optionalId(search.comment) }),
  loader: (ctx) => loadChunk(() => import('./message.lazy.tsx')).then((page) => page.loadMessageDetail(ctx)),
}).lazy(() => import('./message.lazy.tsx').then((m) => m.messageDetailLazyRoute));

export const messagePosterRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/message/detail/poster/$id',
  staticData: { title: '动态详情', heading: '动态详情', gone: '这条动态已被删除' },
  loader: (ctx) => loadChunk(() => import('./message.lazy.tsx')).then((page) => page.loadMessagePoster(ctx)),
}).lazy(() => import('./message.lazy.tsx').then((m) => m.messagePosterLazyRoute));
