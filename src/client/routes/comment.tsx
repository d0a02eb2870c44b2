/** /comment (写评论): the mobile comment box. */
import { createRoute } from '@tanstack/react-router';
import { optionalId } from './params.ts';
import { rootRoute } from './root.tsx';

export const commentRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/comment',
  staticData: { title: '写评论', heading: '写评论' },
  // /comment?post_id=&reply_id=&reply_to=: the post, and the comment answered with its author's nick.
  validateSearch: (
    search: Record<string, unknown>,
  ): { post_id?: number | undefined; reply_id?: number | undefined; reply_to?: string | undefined } => ({
    post_id: optionalId(search.post_id),
    reply_id: optionalId(search.reply_id),
    reply_to: typeof search.reply_to === 'string' ? search.reply_to.slice(0, 40) : undefined,
  }),
}).lazy(() => import('./comment.lazy.tsx').then((m) => m.commentLazyRoute));
