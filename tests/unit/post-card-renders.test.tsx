// First: react-dom looks for the DevTools hook once, when it loads.
import { countRenders } from '../support/render-counter.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PostCard } from '../../src/client/features/feed/components/PostCard.tsx';
import { postFacts } from '../../src/client/features/feed/post-facts.ts';
import { PostList } from '../../src/client/features/feed/components/PostList.tsx';
import { updatePost } from '../../src/client/entities/post/cache.ts';
import { feedQueryOptions } from '../../src/client/entities/post/queries.ts';
import { makePost, stubApi } from './fixtures.ts';

const renders = countRenders(PostCard);

function renderFeed() {
  const root = createRootRoute({ component: () => <PostList options={feedQueryOptions({ tab: 'all' })} /> });
  const router = createRouter({
    routeTree: root.addChildren([createRoute({ getParentRoute: () => root, path: '$' })]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return queryClient;
}

describe('a card re-renders only when its post changes', () => {
  beforeEach(() => vi.spyOn(window, 'scrollTo').mockImplementation(() => {}));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('a like on one post renders that card again and no other', async () => {
    stubApi({ posts: 10 });
    const queryClient = renderFeed();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(10));
    const before = new Map(renders);
    expect(before.size).toBe(10);

    // The cache helper a like goes through (entities/post/cache.ts): a new object for post 7 only.
    act(() => updatePost(queryClient, 7, (post) => ({ ...post, is_like: true, like_count: post.like_count + 1 })));
    await waitFor(() => expect(screen.getByRole('button', { name: /取消点赞|已赞/ })).toBeTruthy());

    const again = [...renders].map(([key, count]) => [key, count - (before.get(key) ?? 0)]);
    expect(Object.fromEntries(again.filter(([, n]) => n !== 0))).toEqual({ '7': 1 });
  });

  it('cuts the text and reads the time once per post object', () => {
    const long = makePost(1, { content: '长'.repeat(400) });
    const facts = postFacts(long);
    expect(postFacts(long)).toBe(facts);
    expect(facts.text.long).toBe(true);
    expect(facts.readable).toBe('5分钟前');
    // A changed post is a new object, with facts of its own.
    const edited = { ...long, content: '短' };
    expect(postFacts(edited)).not.toBe(facts);
    expect(postFacts(edited).text).toEqual({ shown: '短', long: false });
  });
});
