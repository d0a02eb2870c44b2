/** /booklist/$code: the reading list made with WeChat Read, not out yet. */
import { createRoute } from '@tanstack/react-router';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { rootRoute } from './root.tsx';

export const booklistRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/booklist/$code',
  staticData: { title: `${PROVIDER_NAME} x 微信读书`, heading: `${PROVIDER_NAME} x 微信读书` },
}).lazy(() => import('./booklist.lazy.tsx').then((m) => m.booklistLazyRoute));
