/**
 * /post (输入代码) and /code: the editor of the draft's snippet; /code/$postid/$uuid: one snippet.
 */
import { createRoute } from '@tanstack/react-router';
import { loadChunk } from '../lib/chunk.ts';
import { rootRoute } from './root.tsx';

export const postCodeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/post',
  staticData: { title: '输入代码', heading: '输入代码' },
}).lazy(() => import('./code-draft.lazy.tsx').then((m) => m.postCodeLazyRoute));

export const codeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/code',
  staticData: { heading: '代码' },
}).lazy(() => import('./code-draft.lazy.tsx').then((m) => m.codeLazyRoute));

export const codeDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/code/$postid/$uuid',
  staticData: { heading: '代码' },
  loader: (ctx) => loadChunk(() => import('./code.lazy.tsx')).then((page) => page.loadCodeDetail(ctx)),
}).lazy(() => import('./code.lazy.tsx').then((m) => m.codeDetailLazyRoute));
