/** /error (出错了): the page that says a link led nowhere (页面出了点问题) and offers the way home. */
import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './root.tsx';

export const errorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/error',
  staticData: { heading: '出错了' },
}).lazy(() => import('./error.lazy.tsx').then((m) => m.errorLazyRoute));
