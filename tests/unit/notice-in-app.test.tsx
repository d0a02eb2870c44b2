/**
 * Inside the native app a notice opens the post the app's way: through its app link when the
 * app's version passes the post's gate, else 需要升级到极客时间最新版; the web view stays on /notice.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { LoginUser, Notice } from '../../src/shared/schemas.ts';
import { startNativeApp } from '../../src/client/app/host/native-app.ts';
import { createAppRouter } from '../../src/client/app/router.tsx';
import { noticeKeys } from '../../src/client/entities/notice/queries.ts';
import { sessionKeys } from '../../src/client/entities/session/queries.ts';
import { detectEnvironment } from '../../src/client/platform/environment.ts';
import { stubApi } from './fixtures.ts';
import { UA } from './user-agents.ts';

const ME: LoginUser = { uid: 5, ucode: 'ME', nick: '我', avatar: '', cellphone: '', ctime: 0, student: 0, usertype: 1 };
const NOTICE: Notice = {
  id: 1,
  type: 'comment',
  actors: [{ uid: 8, ucode: 'U8', nick: '码农老王', avatar: '', is_follow: false }],
  actor_count: 1,
  post_id: 7,
  comment_id: 9,
  target_excerpt: '我的动态',
  content_excerpt: '写得好',
  route: '/message/detail/7?comment=9',
  unread: false,
  update_time: Date.now(),
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete window.GeekTimeApp;
});

async function tapNoticeIn(appVersion: string) {
  stubApi();
  const openUrl = vi.fn();
  window.GeekTimeApp = { openUrl } as unknown as NonNullable<typeof window.GeekTimeApp>;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(sessionKeys.user, ME);
  queryClient.setQueryData(noticeKeys.unread(ME.uid), 0);
  queryClient.setQueryData(noticeKeys.list(ME.uid, 'all'), { pages: [{ list: [NOTICE], page: { more: false, next_index: 0 } }], pageParams: [0] });
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: ['/notice'] }) });
  startNativeApp({ queryClient, router, env: detectEnvironment(UA.iosApp(appVersion)) });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByRole('link', { name: /码农老王 评论了你的动态/ }));
  return { openUrl, router };
}

it('opens the post by its app link in an app that passes the gate', async () => {
  const { openUrl, router } = await tapNoticeIn('2.8.3');
  await waitFor(() => expect(openUrl).toHaveBeenCalledWith('geektime://hordePostDetail?postId=7'));
  expect(router.state.location.pathname).toBe('/notice');
});

it('says 需要升级到极客时间最新版 in an app too old for it, and stays', async () => {
  const { openUrl, router } = await tapNoticeIn('2.7.0');
  await screen.findByText('需要升级到极客时间最新版');
  expect(openUrl).not.toHaveBeenCalled();
  expect(router.state.location.pathname).toBe('/notice');
});
