/** / and every unknown path go to /home. */
import { createRoute, redirect } from '@tanstack/react-router';
import { rootRoute } from './root.tsx';

export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

export const catchAllRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});
