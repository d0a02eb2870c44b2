/**
 * 有 N 条新动态 asks for the feed's newest page once for a post it is told of twice: by the
 * page's return (focus) and by the live stream. The network is the test's recording fetch.
 */
import { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { postKeys } from '../../src/client/entities/post/queries.ts';
import { checkNewPosts, hideNewPosts } from '../../src/client/features/feed/new-posts.ts';

const router = {
  state: { location: { pathname: '/home', search: {}, href: '/home' } },
  subscribe: () => () => undefined,
} as unknown as AnyRouter;
let newestOnServer = 0;
const asked: unknown[] = [];

function feedWithNewest(newest: number): QueryClient {
  const queryClient = new QueryClient();
  queryClient.setQueryData(postKeys.feed({ tab: 'all' }), { pages: [{ list: [{ id: newest }], page: { more: true } }], pageParams: [1] });
  return queryClient;
}

beforeEach(() => {
  asked.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      asked.push(JSON.parse(String(init.body)));
      const list = [newestOnServer, newestOnServer - 1].map((id) => ({ id }));
      return new Response(JSON.stringify({ code: 0, data: { list, page: { more: true } } }));
    }),
  );
});
afterEach(() => {
  hideNewPosts();
  vi.unstubAllGlobals();
});

const pillText = () => document.querySelector('.new-posts__pill')?.textContent;

it('asks once when the live stream tells of a post that a check on its way or done already found', async () => {
  newestOnServer = 101;
  const queryClient = feedWithNewest(100);
  await Promise.all([checkNewPosts(queryClient, router), checkNewPosts(queryClient, router, 101)]);
  expect(asked).toHaveLength(1);
  expect(pillText()).toBe('有 1 条新动态');

  await checkNewPosts(queryClient, router, 101);
  expect(asked).toHaveLength(1);
});

it('asks again for a post newer than any check found', async () => {
  newestOnServer = 201;
  const queryClient = feedWithNewest(200);
  await checkNewPosts(queryClient, router);
  newestOnServer = 202;
  await checkNewPosts(queryClient, router, 202);
  expect(asked).toHaveLength(2);
  expect(pillText()).toBe('有 2+ 条新动态');
  // Told of nothing in particular (too much missed): it asks whatever it found before.
  await checkNewPosts(queryClient, router);
  expect(asked).toHaveLength(3);
});
