/** Rendering a piece of the client as the app holds it: inside a router and a query client. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { useLayoutEffect, type ReactNode } from 'react';
import { carryParamsMiddleware } from '../../src/client/lib/carry-params.ts';

/**
 * Renders inside a router (Links need one, carrying gk_/utm_/code like the app's) at `path` and
 * a query client (a fresh one unless given).
 */
export function renderWithProviders(ui: ReactNode, { path = '/', queryClient }: { path?: string; queryClient?: QueryClient } = {}) {
  const root = createRootRoute({ search: { middlewares: [carryParamsMiddleware] }, component: () => <>{ui}</> });
  const child = (path: string) => createRoute({ getParentRoute: () => root, path });
  const routeTree = root.addChildren([child('/message/detail/$id'), child('$')]);
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [path] }) });
  const client = queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient: client };
}

/** Placed after what a test watches: `onFirstCommit` sees the page as that first commit left it. */
export function FirstCommitProbe({ onFirstCommit }: { onFirstCommit: () => void }) {
  useLayoutEffect(onFirstCommit, []);
  return null;
}
