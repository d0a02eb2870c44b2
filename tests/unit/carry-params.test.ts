import { createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import {
  carriedParamsFromReferrer,
  carryParamsMiddleware,
  isCarriedParam,
  pickCarriedParams,
  withReferrerParams,
} from '../../src/client/lib/carry-params.ts';

describe('carried query parameters', () => {
  it('recognises gk_*, utm_* and anything containing "code"', () => {
    expect(isCarriedParam('gk_source')).toBe(true);
    expect(isCarriedParam('utm_campaign')).toBe(true);
    expect(isCarriedParam('share_code')).toBe(true);
    expect(isCarriedParam('code')).toBe(true);
    expect(isCarriedParam('channelId')).toBe(false);
    expect(isCarriedParam('tab')).toBe(false);
    expect(pickCarriedParams({ utm_source: 'wx', tab: 1, gk_x: '', share_code: 'a' })).toEqual({
      utm_source: 'wx',
      share_code: 'a',
    });
  });

  it('adds the current carried params to the next search unless it sets them', () => {
    const next = (s: Record<string, unknown>) => ({ channelId: 3, utm_medium: s.utm_medium === 'a' ? 'b' : 'c' });
    expect(carryParamsMiddleware({ search: { utm_source: 'x', utm_medium: 'a', page: 2 }, next })).toEqual({
      utm_source: 'x',
      utm_medium: 'b',
      channelId: 3,
    });
  });

  it('takes them from a referrer on the provider domain only', () => {
    expect(carriedParamsFromReferrer('https://time.geekbang.org/column/1?gk_from=col&x=1&invite_code=7')).toEqual({
      gk_from: 'col',
      invite_code: '7',
    });
    expect(carriedParamsFromReferrer('https://evil-geekbang.org/?gk_from=col')).toEqual({});
    expect(carriedParamsFromReferrer('')).toEqual({});
    expect(withReferrerParams('https://app.test/home?utm_source=a', 'https://time.geekbang.org/?utm_source=b&gk_x=1')).toBe(
      '/home?utm_source=a&gk_x=1',
    );
    expect(withReferrerParams('https://app.test/home', 'https://example.com/?gk_x=1')).toBeNull();
  });

  it('travels across TanStack Router navigations and redirects', async () => {
    const root = createRootRoute({ search: { middlewares: [carryParamsMiddleware] } });
    const home = createRoute({ getParentRoute: () => root, path: '/home' });
    const good = createRoute({ getParentRoute: () => root, path: '/good' });
    const follow = createRoute({
      getParentRoute: () => root,
      path: '/follow',
      validateSearch: (s: Record<string, unknown>) => (typeof s.channelId === 'number' ? { channelId: s.channelId } : {}),
    });
    const router = createRouter({
      routeTree: root.addChildren([home, good, follow]),
      history: createMemoryHistory({ initialEntries: ['/home?utm_source=wx&gk_from=app&tab=1'] }),
    });
    await router.load();
    await router.navigate({ to: '/good' });
    expect(router.state.location.pathname).toBe('/good');
    expect(router.state.location.search).toEqual({ utm_source: 'wx', gk_from: 'app' });
    await router.navigate({ to: '/follow', search: { channelId: 4 } });
    expect(router.state.location.search).toEqual({ utm_source: 'wx', gk_from: 'app', channelId: 4 });
  });
});
