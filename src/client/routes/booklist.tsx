/** /booklist/$code: a joint book list of the provider and WeChat Read (title: 极客时间 x 微信读书). */
import { createRoute } from '@tanstack/react-router';
import { loadChunk } from '../lib/chunk.ts';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { rootRoute } from './root.tsx';

export const booklistRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/booklist/$code',
  staticData: { title: `${PROVIDER_NAME} x 微信读书`, heading: `${PROVIDER_NAME} x 微信读书`, gone: '这个书单不存在' },
  loader: (ctx) => loadChunk(() => import('./booklist.lazy.tsx')).then((page) => page.loadBooklist(ctx)),
}).lazy(() => import('./booklist.lazy.tsx').then((m) => m.booklistLazyRoute));
