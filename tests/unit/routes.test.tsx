import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '../../src/client/router.tsx';
import { stubApi } from './fixtures.ts';

const provider = __PROVIDER_NAME__;

function renderAt(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [path] }) });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** Every route of SPEC.md section 2 with the document title it must have. */
const routes: [string, string][] = [
  ['/home', provider],
  ['/follow', provider],
  ['/follow?channelId=3', provider],
  ['/good', provider],
  ['/usercenter/5', provider],
  ['/usercenter/AB12CD', provider],
  ['/code', provider],
  ['/code/12/abc-uuid', provider],
  ['/channel/list/1', provider],
  ['/complain', '投诉理由'],
  ['/post', '输入代码'],
  ['/comment', '写评论'],
  ['/statement', provider],
  ['/invite', `${provider}邀请函`],
  ['/invite/channelList', provider],
  ['/booklist/ABC', `${provider} x 微信读书`],
  ['/message/detail/12', provider],
  ['/message/detail/poster/12', '动态详情'],
  ['/topic/list', '话题列表'],
  ['/topic/comment/7', '话题主页'],
  ['/error', provider],
];

describe('route tree', () => {
  beforeEach(() => {
    stubApi();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    document.title = '';
  });

  it.each(routes)('%s renders with the title %s', async (path, title) => {
    const router = renderAt(path);
    await waitFor(() => expect(router.state.status).toBe('idle'));
    await waitFor(() => expect(document.title).toBe(title));
    expect(router.state.location.pathname).toBe(path.split('?')[0]);
    expect(screen.getByRole('main')).toBeTruthy();
  });

  it.each(['/', '/no/such/page', '/message'])('%s ends at /home', async (path) => {
    const router = renderAt(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('keeps carried params when / redirects to /home', async () => {
    const router = renderAt('/?utm_source=wx&x=1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(router.state.location.search).toMatchObject({ utm_source: 'wx' });
  });

  it('validates /follow?channelId', async () => {
    const router = renderAt('/follow?channelId=abc');
    await waitFor(() => expect(router.state.status).toBe('idle'));
    const followSearch = () => router.state.matches.find((m) => m.routeId === '/follow')?.search;
    expect(followSearch()).toMatchObject({ channelId: undefined });
    expect(await screen.findByText('登录后查看关注的动态')).toBeTruthy();
    await act(async () => {
      await router.navigate({ to: '/follow', search: { channelId: 4 } });
    });
    expect(followSearch()).toMatchObject({ channelId: 4 });
  });

  it('asks logged-out users to log in on /follow', async () => {
    renderAt('/follow');
    expect(await screen.findByText('登录后查看关注的动态')).toBeTruthy();
  });

  it('shows a friendly error for a broken id', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderAt('/message/detail/abc');
    expect(await screen.findByText('链接出现错误')).toBeTruthy();
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
  });
});
