import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Channel } from '../../src/shared/schemas.ts';
import { carryParamsMiddleware } from '../../src/client/lib/carry-params.ts';
import { Sidebar } from '../../src/client/features/sidebar/components/Sidebar.tsx';
import {
  buildSidebarItems,
  isItemActive,
  isItemOpen,
  sidebarClickAction,
} from '../../src/client/features/sidebar/model.ts';
import { useSidebarStore } from '../../src/client/features/sidebar/sidebar-store.ts';
import { useLayoutStore } from '../../src/client/platform/layout-store.ts';
import { TRACKING_OUTBOX_KEY } from '../../src/client/platform/tracking.ts';
import { stubApi } from './fixtures.ts';

const followed: Channel[] = [
  { channel_id: 3, channel_name: '前端' },
  { channel_id: 4, channel_name: '读书会' },
];
const explore = [
  { title: '话题广场', id: 1, redirect_param: '/topic/list' },
  { title: '每日一课', id: 2, redirect_param: 'https://time.geekbang.org/dailylesson' },
];

describe('sidebar model', () => {
  it('has the fixed items first, then the explore items', () => {
    const items = buildSidebarItems(followed, explore);
    expect(items.map((i) => i.title)).toEqual(['全部', '关注', '精华', '话题广场', '每日一课']);
    expect(items[1]?.children.map((c) => c.channelId)).toEqual([3, 4]);
    expect(items[4]).toMatchObject({ external: true, target: 'https://time.geekbang.org/dailylesson' });
    expect(buildSidebarItems([], [])[1]?.children).toEqual([]);
  });

  it('knows the active item and what a click does', () => {
    const [all, follow, , topics, external] = buildSidebarItems(followed, explore);
    expect(isItemActive(all!, '/home')).toBe(true);
    expect(isItemActive(follow!, '/follow')).toBe(true);
    expect(isItemActive(topics!, '/topic/list')).toBe(true);
    expect(sidebarClickAction(follow!, '/follow', undefined)).toBe('toggle');
    expect(sidebarClickAction(follow!, '/follow', 3)).toBe('navigate');
    expect(sidebarClickAction(follow!, '/home', undefined)).toBe('navigate');
    expect(sidebarClickAction(all!, '/home', undefined)).toBe('navigate');
    expect(sidebarClickAction(external!, '/home', undefined)).toBe('external');
    expect(isItemOpen(follow!, true, {})).toBe(true);
    expect(isItemOpen(follow!, false, {})).toBe(false);
    expect(isItemOpen(follow!, true, { follow: false })).toBe(false);
    expect(isItemOpen(all!, true, {})).toBe(false);
  });
});

function renderSidebar(path: string) {
  const root = createRootRoute({
    search: { middlewares: [carryParamsMiddleware] },
    component: () => (
      <>
        <Sidebar followedChannels={followed} />
        <Outlet />
      </>
    ),
  });
  const leaf = (p: string) => createRoute({ getParentRoute: () => root, path: p, component: () => <p>{p}</p> });
  const router = createRouter({
    routeTree: root.addChildren([leaf('/home'), leaf('/follow'), leaf('/good'), leaf('/topic/list')]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('Sidebar', () => {
  beforeEach(() => {
    stubApi({ explore });
    useSidebarStore.setState({ expanded: {} });
    // The sidebar of the PC layout (on a phone it is the 发现 sheet's content).
    useLayoutStore.setState({ isMobile: false });
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    localStorage.clear();
  });
  afterEach(() => {
    useLayoutStore.setState({ isMobile: true });
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('marks the active item and appends the explore items', async () => {
    renderSidebar('/home');
    const nav = await screen.findByRole('navigation', { name: '社区导航' });
    expect(within(nav).getByRole('link', { name: '全部' }).getAttribute('aria-current')).toBe('page');
    const external = await within(nav).findByRole('link', { name: /每日一课/ });
    expect(external.getAttribute('target')).toBe('_blank');
    expect(external.getAttribute('rel')).toContain('noopener');
    expect(within(nav).getByRole('link', { name: '话题广场' }).getAttribute('href')).toBe('/topic/list');
  });

  it('clicking the active item with children toggles them', async () => {
    const router = renderSidebar('/follow');
    const follow = await screen.findByRole('link', { name: '关注' });
    expect(follow.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: '前端' }).getAttribute('href')).toBe('/follow?channelId=3');
    fireEvent.click(follow);
    expect(follow.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: '前端' })).toBeNull();
    expect(router.state.location.pathname).toBe('/follow');
    fireEvent.click(follow);
    expect(follow.getAttribute('aria-expanded')).toBe('true');
  });

  it('a sub-item opens /follow?channelId and becomes the current page', async () => {
    const router = renderSidebar('/home');
    const follow = await screen.findByRole('link', { name: '关注' });
    expect(follow.getAttribute('aria-expanded')).toBe('false');
    await act(async () => {
      fireEvent.click(follow);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/follow'));
    const child = await screen.findByRole('link', { name: '读书会' });
    await act(async () => {
      fireEvent.click(child);
    });
    await waitFor(() => expect(router.state.location.search).toMatchObject({ channelId: 4 }));
    expect(screen.getByRole('link', { name: '读书会' }).getAttribute('aria-current')).toBe('page');
  });

  it("on a phone (the 发现 sheet) shows 关注's channels at once, and tracks each click with its position", async () => {
    useLayoutStore.setState({ isMobile: true });
    const router = renderSidebar('/home');
    const child = await screen.findByRole('link', { name: '读书会' });
    expect(screen.getByRole('link', { name: '关注' }).getAttribute('aria-expanded')).toBe('true');
    await act(async () => {
      fireEvent.click(child);
    });
    await waitFor(() => expect(router.state.location.search).toMatchObject({ channelId: 4 }));
    fireEvent.click(await screen.findByRole('link', { name: '话题广场' }));
    const tracked = async () => JSON.parse(localStorage.getItem(TRACKING_OUTBOX_KEY) ?? '[]') as { event: string; properties: object }[];
    await waitFor(async () => expect(await tracked()).toHaveLength(2));
    expect((await tracked()).map((e) => [e.event, e.properties])).toEqual([
      ['click_resource_position', expect.objectContaining({ position_type: 'channel', position_name: '读书会', position_num: 2, report_source: 'H5' })],
      ['click_resource_position', expect.objectContaining({ position_type: 'explore', position_name: '话题广场', position_num: 4 })],
    ]);
  });

  it('links carry the gk_/utm_/code parameters, so a new tab keeps them too', async () => {
    renderSidebar('/follow?utm_source=wx&plain=1');
    const nav = await screen.findByRole('navigation', { name: '社区导航' });
    const search = (name: string) => {
      const href = within(nav).getByRole('link', { name }).getAttribute('href') ?? '';
      return Object.fromEntries(new URL(href, 'http://localhost').searchParams);
    };
    expect(search('精华')).toEqual({ utm_source: 'wx' });
    expect(search('前端')).toEqual({ utm_source: 'wx', channelId: '3' });
    await within(nav).findByRole('link', { name: '话题广场' });
    expect(search('话题广场')).toEqual({ utm_source: 'wx' });
    expect(within(nav).getByRole('link', { name: /每日一课/ }).getAttribute('href')).toBe('https://time.geekbang.org/dailylesson');
  });
});
