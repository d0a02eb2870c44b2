/**
 * /moderation (内容审核): the moderators' review queue and audit log. Anyone else, logged out
 * too, gets what an unknown address gets: /home.
 */
import { createRoute, redirect } from '@tanstack/react-router';
import { sessionQueryOptions } from '../entities/session/queries.ts';
import { rootRoute } from './root.tsx';

export const moderationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/moderation',
  staticData: { title: '内容审核', heading: '内容审核' },
  validateSearch: (search: Record<string, unknown>): { tab?: 'log' | undefined } => ({ tab: search.tab === 'log' ? 'log' : undefined }),
  beforeLoad: async ({ context }) => {
    const user = await context.queryClient.ensureQueryData(sessionQueryOptions()).catch(() => null);
    if (!user?.is_moderator) throw redirect({ to: '/home', replace: true });
  },
}).lazy(() => import('./moderation.lazy.tsx').then((m) => m.moderationLazyRoute));
