/** /error (出错了): the error page of SPEC.md's route table. */
import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './root.tsx';

export const errorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/error',
  staticData: { heading: '出错了' },
}).lazy(() => import('./error.lazy.tsx').then((m) => m.errorLazyRoute));
