/**
 * Pages of their own (complaint, writing, statement, invitation, book list, error). Their
 * code loads when first opened.
 */
import { createRoute } from '@tanstack/react-router';
import type { ComplainTarget } from '../features/complain/components/ComplainForm.tsx';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
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

export const postCodeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/post',
  staticData: { title: '输入代码', heading: '输入代码' },
}).lazy(() => import('./code-draft.lazy.tsx').then((m) => m.postCodeLazyRoute));

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

export const statementRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/statement',
  staticData: { heading: '社区声明' },
}).lazy(() => import('./pages.lazy.tsx').then((m) => m.statementLazyRoute));

export const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite',
  staticData: { title: `${PROVIDER_NAME}邀请函`, heading: `${PROVIDER_NAME}邀请函` },
}).lazy(() => import('./pages.lazy.tsx').then((m) => m.inviteLazyRoute));

export const booklistRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/booklist/$code',
  staticData: { title: `${PROVIDER_NAME} x 微信读书`, heading: `${PROVIDER_NAME} x 微信读书` },
}).lazy(() => import('./pages.lazy.tsx').then((m) => m.booklistLazyRoute));

export const errorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/error',
  staticData: { heading: '出错了' },
}).lazy(() => import('./pages.lazy.tsx').then((m) => m.errorLazyRoute));
