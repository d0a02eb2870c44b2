/**
 * Search's pieces: an excerpt's words are text whatever they hold, the recent searches on the
 * device (newest first, once each, at most ten, cleared in one go and at logout), the address's
 * query and kind, and the results as the page shows them from a stubbed server: posts with their
 * marked excerpts and a like that reaches them, rows for the other kinds, the empty state.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchHit } from '../../src/shared/schemas.ts';
import { updatePost } from '../../src/client/entities/post/cache.ts';
import { postKeys } from '../../src/client/entities/post/queries.ts';
import { searchKeys, toSearchPage } from '../../src/client/entities/search/queries.ts';
import { searchText } from '../../src/client/entities/search/search-text.ts';
import {
  clearRecentSearches,
  RECENT_SEARCHES_KEY,
  rememberSearch,
  useRecentSearches,
} from '../../src/client/entities/search/recent-searches.ts';
import { applyLogout } from '../../src/client/entities/session/session-cache.ts';
import { Excerpt } from '../../src/client/features/search/components/Excerpt.tsx';
import { RecentSearches } from '../../src/client/features/search/components/RecentSearches.tsx';
import { SearchResults } from '../../src/client/features/search/components/SearchResults.tsx';
import { createQueryClient } from '../../src/client/lib/query-client.ts';
import { searchRoute } from '../../src/client/routes/search.tsx';
import { makePost } from './fixtures.ts';
import { renderWithProviders } from './render-in-app.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearRecentSearches();
});

describe('an excerpt', () => {
  it('draws the matches as <mark> and everything as text, a <script> included', () => {
    const { container } = render(
      <Excerpt
        excerpt={[
          { text: '<script>window.hacked = 1</script> 前面 ', hit: false },
          { text: '<b>学习</b>', hit: true },
          { text: ' <img src=x onerror=alert(1)>', hit: false },
        ]}
      />,
    );
    expect(container.querySelector('script, b, img')).toBeNull();
    const marks = container.querySelectorAll('mark');
    expect(marks).toHaveLength(1);
    expect(marks[0]!.textContent).toBe('<b>学习</b>');
    expect(container.textContent).toBe('<script>window.hacked = 1</script> 前面 <b>学习</b> <img src=x onerror=alert(1)>');
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it('is nothing when there is no excerpt', () => {
    const { container } = render(<Excerpt excerpt={[]} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('recent searches', () => {
  it('keeps the newest first, each once, at most ten, on the device', () => {
    for (let i = 1; i <= 12; i += 1) rememberSearch(`词${i}`);
    rememberSearch('词5');
    const items = useRecentSearches.getState().items;
    expect(items).toHaveLength(10);
    expect(items[0]).toBe('词5');
    expect(items.filter((item) => item === '词5')).toHaveLength(1);
    expect(items).not.toContain('词1');
    expect(JSON.parse(localStorage.getItem(RECENT_SEARCHES_KEY)!)).toEqual(items);
  });

  it('shows them, a tap searches one again, and 清除 forgets them all in one tap', () => {
    rememberSearch('旧词');
    rememberSearch('新词');
    const picked: string[] = [];
    render(<RecentSearches onPick={(q) => picked.push(q)} />);
    const buttons = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(buttons).toEqual(['新词', '旧词']);
    screen.getByRole('button', { name: '旧词' }).click();
    expect(picked).toEqual(['旧词']);
    screen.getByRole('button', { name: '清除最近搜索' }).click();
    expect(useRecentSearches.getState().items).toEqual([]);
    expect(localStorage.getItem(RECENT_SEARCHES_KEY)).toBeNull();
  });

  it('are cleared at logout', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 0, data: {} }), { headers: { 'content-type': 'application/json' } })));
    rememberSearch('别人的词');
    const queryClient = createQueryClient({ onError: () => undefined });
    await applyLogout(queryClient);
    expect(useRecentSearches.getState().items).toEqual([]);
    expect(localStorage.getItem(RECENT_SEARCHES_KEY)).toBeNull();
    queryClient.clear();
  });
});

describe('the address of a search', () => {
  const validate = searchRoute.options.validateSearch as (search: Record<string, unknown>) => unknown;
  it('trims the query, cuts it to 64 characters, and reads an unknown kind as 动态', () => {
    expect(validate({ q: '  学习  ', type: 'user' })).toEqual({ q: '学习', type: 'user' });
    expect(validate({ q: '   ', type: 'bogus' })).toEqual({ q: undefined, type: undefined });
    expect(validate({ q: '字'.repeat(80), type: 'post' })).toEqual({ q: '字'.repeat(64), type: undefined });
    expect(searchText('  a b  ')).toBe('a b');
  });
});

describe('search results', () => {
  const hits: SearchHit[] = [
    { type: 'post', post: makePost(3, { content: '今天学习了 Rust' }), excerpt: [{ text: '今天', hit: false }, { text: '学习', hit: true }, { text: '了 Rust', hit: false }] },
    { type: 'post', post: makePost(2, { content: '学习计划' }), excerpt: [{ text: '学习', hit: true }, { text: '计划', hit: false }] },
  ];

  beforeEach(() => vi.spyOn(window, 'scrollTo').mockImplementation(() => {}));

  function stubSearch(answer: (body: { q: string; type: string; index?: number }) => SearchHit[]) {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as { q: string; type: string; index?: number };
      return new Response(JSON.stringify({ code: 0, data: { list: answer(body), page: { more: false, next_index: 0 } } }), {
        headers: { 'content-type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  it('keeps the posts found as a list of posts, so a like on a card reaches them as it reaches the feeds', async () => {
    const fetchMock = stubSearch(() => hits);
    const { queryClient } = renderWithProviders(
      <SearchResults
        q="学习"
        type="post"
        postSkeleton={<p>loading</p>}
        renderPost={(post, excerpt) => (
          <article aria-label={`动态 ${post.id}`}>
            {excerpt}
            <span>赞 {post.like_count}</span>
          </article>
        )}
      />,
    );
    const first = await screen.findByRole('article', { name: '动态 3' });
    expect(first.querySelector('mark')?.textContent).toBe('学习');
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toMatchObject({ q: '学习', type: 'post', index: 0 });
    expect(screen.getByRole('status').textContent).toBe('找到 2 个动态');
    expect(searchKeys.results('学习', 'post')).toEqual(postKeys.search('学习'));

    updatePost(queryClient, 3, (post) => ({ ...post, is_like: true, like_count: 99 }));
    await waitFor(() => expect(screen.getByRole('article', { name: '动态 3' }).textContent).toContain('赞 99'));
  });

  it('keeps the skeleton until the code of the posts\' polls and code cards is here, as the feeds do', async () => {
    stubSearch(() => hits);
    let partsHere = () => {};
    const parts = new Promise<void>((resolve) => (partsHere = resolve));
    const postsPending = vi.fn((_posts: readonly unknown[]) => parts);
    renderWithProviders(
      <SearchResults
        q="学习"
        type="post"
        postSkeleton={<p>loading</p>}
        postsPending={postsPending}
        renderPost={(post) => <article aria-label={`动态 ${post.id}`} />}
      />,
    );
    await waitFor(() => expect(postsPending).toHaveBeenCalled());
    expect(postsPending.mock.calls[0]![0]).toHaveLength(2);
    expect(screen.queryByRole('article')).toBeNull();
    expect(screen.getByText('loading')).toBeTruthy();
    partsHere();
    expect(await screen.findByRole('article', { name: '动态 3' })).toBeTruthy();
  });

  it('shows topics, channels and users as linked rows with their excerpts', async () => {
    stubSearch(({ type }) =>
      type === 'user'
        ? [{ type: 'user', user: { uid: 9, ucode: 'U9', nick: '学习委员', avatar: '', is_follow: false }, excerpt: [{ text: '学习', hit: true }, { text: '委员', hit: false }] }]
        : [],
    );
    renderWithProviders(<SearchResults q="学习" type="user" postSkeleton={null} renderPost={() => null} />);
    const link = await screen.findByRole('link', { name: /学习委员/ });
    expect(link.getAttribute('href')).toBe('/usercenter/9');
    expect(link.querySelector('mark')?.textContent).toBe('学习');
  });

  it('says when nothing was found', async () => {
    stubSearch(() => []);
    renderWithProviders(<SearchResults q="无此词" type="topic" postSkeleton={null} renderPost={() => null} />);
    expect(await screen.findByText('没有找到与「无此词」相关的内容')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('没有找到结果');
  });

  it('splits an answer into the posts and the other hits', () => {
    const page = toSearchPage({ list: hits, page: { more: true, next_index: 2 } });
    expect(page.list.map((post) => post.id)).toEqual([3, 2]);
    expect(page.excerpts[2]).toEqual(hits[1]!.excerpt);
    expect(page.others).toEqual([]);
  });
});
