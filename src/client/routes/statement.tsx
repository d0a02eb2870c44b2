/** /statement (社区声明). */
import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './root.tsx';

export const statementRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/statement',
  staticData: { heading: '社区声明' },
}).lazy(() => import('./statement.lazy.tsx').then((m) => m.statementLazyRoute));
