/** /usercenter/$id: a user's profile (numeric id or ucode) and posts. */
import { createRoute } from '@tanstack/react-router';
import { loadChunk } from '../lib/chunk.ts';
import { rootRoute } from './root.tsx';

export const userCenterRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/usercenter/$id',
  staticData: { heading: '个人主页', gone: '这个用户不存在' },
  loader: (ctx) => loadChunk(() => import('./user.lazy.tsx')).then((page) => page.loadUserCenter(ctx)),
}).lazy(() => import('./user.lazy.tsx').then((m) => m.userCenterLazyRoute));
