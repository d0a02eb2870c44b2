/** /complain (投诉理由): reporting a post, a comment or a user. */
import { createRoute } from '@tanstack/react-router';
import type { ComplainTarget } from '../features/complain/components/ComplainForm.tsx';
import { optionalId } from './params.ts';
import { rootRoute } from './root.tsx';

export const complainRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/complain',
  staticData: { title: '投诉理由', heading: '投诉理由' },
  // /complain?type=post|comment|user&id=: what is reported.
  validateSearch: (search: Record<string, unknown>): { type?: ComplainTarget | undefined; id?: number | undefined } => ({
    type: search.type === 'post' || search.type === 'comment' || search.type === 'user' ? search.type : undefined,
    id: optionalId(search.id),
  }),
}).lazy(() => import('./complain.lazy.tsx').then((m) => m.complainLazyRoute));
