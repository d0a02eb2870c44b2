import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '../../src/client/app/router.tsx';
import { openGallery, useGalleryStore } from '../../src/client/ui/gallery/gallery-store.ts';
import { openPicker } from '../../src/client/ui/picker/open-picker.ts';
import { usePickerStore } from '../../src/client/ui/picker/picker-store.ts';
import { DEFAULT_CLIENT_CONFIG } from '../../src/shared/client-config.ts';
import { stubApi } from './fixtures.ts';

const provider = DEFAULT_CLIENT_CONFIG.providerName;

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

/** Every route of the app with the document title it must have. */
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
  ['/notice', '消息通知'],
  ['/search', '搜索'],
  ['/search?q=学习&type=user', '搜索'],
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
    // The page itself rendered: its heading is there, and no error state stands in its place
    // (a page that throws keeps the title of its route but shows 加载失败).
    const main = screen.getByRole('main');
    await waitFor(() => expect(within(main).queryAllByRole('heading').length).toBeGreaterThan(0));
    expect(within(main).queryByText('加载失败')).toBeNull();
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

describe('following a channel', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('the 关注 feed loads again after a follow, instead of showing what it listed before', async () => {
    const fetchMock = stubApi({ loggedIn: true });
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const followFeedCalls = () =>
      fetchMock.mock.calls.filter(([input, init]) => String(input).endsWith('/channel/posts') && String(init?.body).includes('"tab":"follow"')).length;
    const router = renderAt('/follow');
    await screen.findAllByRole('article');
    expect(followFeedCalls()).toBe(1);
    await act(async () => {
      await router.navigate({ to: '/channel/list/$id', params: { id: '1' } });
    });
    const follow = await screen.findByRole('button', { name: '关注' });
    await waitFor(() => expect(follow.hasAttribute('disabled')).toBe(false));
    await act(async () => {
      follow.click();
    });
    await screen.findByRole('button', { name: '已关注' });
    await act(async () => {
      await router.navigate({ to: '/follow' });
    });
    await waitFor(() => expect(followFeedCalls()).toBe(2));
  });
});

/** The app at `path`, once its page shows its posts. */
async function renderSettledAt(path: string) {
  const router = renderAt(path);
  await waitFor(() => expect(router.state.status).toBe('idle'));
  await screen.findAllByRole('article');
  return router;
}

const images = [1, 2].map((i) => ({ src: `/img/${i}`, width: 800, height: 600 }));

/**
 * What a navigation does to the layers over the page and to the focus: the gallery and the
 * picker of the page being left close (and give the body scroll back), and the new page's
 * content gets the focus.
 */
describe('navigation', () => {
  beforeEach(() => {
    stubApi();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    act(() => {
      useGalleryStore.getState().close();
      usePickerStore.getState().settle(null);
    });
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('Back closes the gallery of the page it leaves', async () => {
    const router = await renderSettledAt('/home');
    await act(async () => {
      await router.navigate({ to: '/message/detail/$id', params: { id: '12' } });
    });
    act(() => openGallery(images, 0));
    expect(await screen.findByRole('dialog', { name: '图片查看' })).toBeTruthy();
    await act(async () => {
      router.history.back();
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(screen.queryByRole('dialog', { name: '图片查看' })).toBeNull();
    expect(document.querySelector('dialog[open]')).toBeNull();
  });

  // The next page still loading, the one being left is still shown: a picture opened there
  // belongs to it, and Back (to the page the router still calls the current one) closes it.
  it('Back closes a gallery opened while the next page was still loading', async () => {
    const router = await renderSettledAt('/home');
    const answer = globalThis.fetch;
    let release!: () => void;
    const detailHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/post/detail')) await detailHeld;
      return answer(input, init);
    });
    act(() => {
      void router.navigate({ to: '/message/detail/$id', params: { id: '12' } });
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/message/detail/12'));
    act(() => openGallery(images, 0));
    expect(await screen.findByRole('dialog', { name: '图片查看' })).toBeTruthy();
    await act(async () => {
      router.history.back();
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '图片查看' })).toBeNull());
    expect(document.querySelector('dialog[open]')).toBeNull();
    release();
  });

  it('a navigation cancels an open picker', async () => {
    const router = await renderSettledAt('/home');
    let picked!: ReturnType<typeof openPicker>;
    act(() => {
      picked = openPicker({ items: [{ key: 'share', text: '分享' }] });
    });
    await act(async () => {
      await router.navigate({ to: '/good' });
    });
    await expect(picked).resolves.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a new page gets the focus on its main content', async () => {
    const router = await renderSettledAt('/home');
    const link = screen.getAllByRole('link', { name: /查看动态详情/ })[0]!;
    link.focus();
    await act(async () => {
      fireEvent.click(link);
    });
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/message\/detail\//));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });

  it('the skip link focuses the main content without adding #main to the address', async () => {
    const router = await renderSettledAt('/home');
    const skip = screen.getByRole('link', { name: '跳到主要内容' });
    skip.focus();
    fireEvent.click(skip);
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(router.state.location.hash).toBe('');
  });
});
