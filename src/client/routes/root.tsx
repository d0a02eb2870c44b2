/**
 * The root of the route tree: what every route shares. The page frame around it (layout,
 * header, sidebar, focus and title handling) is the app layer's shell.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext } from '@tanstack/react-router';
import { sessionQueryOptions } from '../entities/session/queries.ts';
import { carryParamsMiddleware } from '../lib/carry-params.ts';

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  // ?compose=1 on any page: the composer is open over it (Back closes it).
  validateSearch: (search: Record<string, unknown>): { compose?: 1 | undefined } => ({
    compose: search.compose === 1 || search.compose === '1' ? 1 : undefined,
  }),
  // gk_ / utm_ / *code* query parameters travel with every navigation.
  search: { middlewares: [carryParamsMiddleware] },
  // Logged-in state is fetched on first navigation, without holding the page.
  beforeLoad: ({ context }) => {
    void context.queryClient.prefetchQuery(sessionQueryOptions());
  },
});
