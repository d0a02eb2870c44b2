import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PostCard } from '../../src/client/features/feed/components/PostCard.tsx';
import { PostContent } from '../../src/client/features/feed/components/PostContent.tsx';
import fc from 'fast-check';
import removeMarkdown from 'remove-markdown';
import { cardText, collapseText, isLongText, loadMarkdownRemover } from '../../src/client/features/feed/card-text.ts';
import { holdsNoMarkdown } from '../../src/client/ui/rich-text/holds-no-markdown.ts';
import { flattenPosts, PostList } from '../../src/client/features/feed/components/PostList.tsx';
import { votePercent } from '../../src/client/features/feed/components/PostVote.tsx';
import { useExpandedPostsStore } from '../../src/client/features/feed/expanded-posts-store.ts';
import { feedQueryOptions } from '../../src/client/entities/post/queries.ts';
import { useGalleryStore } from '../../src/client/ui/gallery/gallery-store.ts';
import { makePost, stubApi } from './fixtures.ts';
import { FirstCommitProbe, renderWithProviders } from './render-in-app.tsx';

describe('PostList', () => {
  beforeEach(() => vi.spyOn(window, 'scrollTo').mockImplementation(() => {}));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('pages with the keyset cursor through 加载更多 until 没有更多了', async () => {
    const fetchMock = stubApi({ posts: 25 });
    renderWithProviders(<PostList options={feedQueryOptions({ tab: 'all' })} />);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(10));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '加载更多' }));
    });
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(20));
    const second = fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as { index?: number })[1];
    expect(second).toMatchObject({ index: 16, tab: 'all' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '加载更多' }));
    });
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(25));
    expect(screen.getByText('没有更多了')).toBeTruthy();
  }, 20_000);

  it('shows the empty state', async () => {
    stubApi({ posts: 0 });
    renderWithProviders(<PostList options={feedQueryOptions({ tab: 'good' })} emptyTitle="还没有精华动态" />);
    expect(await screen.findByText('还没有精华动态')).toBeTruthy();
  });

  it('shows an error state whose 重试 loads again', async () => {
    let fail = true;
    const ok = stubApi({ posts: 3 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (fail) {
          return new Response(JSON.stringify({ code: -1, error: { code: -1002, msg: '' } }), {
            headers: { 'content-type': 'application/json' },
          });
        }
        return ok(input, init);
      }),
    );
    renderWithProviders(<PostList options={feedQueryOptions({ tab: 'all' })} />);
    expect(await screen.findByText('系统内部错误')).toBeTruthy();
    fail = false;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '重试' }));
    });
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
  });

  it('shows posts at hand in its first commit; told to wait (the user centre), renders them after the skeleton', async () => {
    stubApi({ posts: 25 });
    const options = feedQueryOptions({ tab: 'all' });
    /** What the page held when the list first committed (a layout effect after it in the same commit). */
    const firstCommit = async (firstPostsInBackground: boolean) => {
      const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
      await queryClient.prefetchInfiniteQuery(options);
      let seen: { articles: number; skeleton: boolean } | undefined;
      const probe = () => {
        seen = { articles: document.querySelectorAll('article').length, skeleton: document.querySelector('.post-card--skeleton') !== null };
      };
      renderWithProviders(
        <>
          <PostList options={options} firstPostsInBackground={firstPostsInBackground} />
          <FirstCommitProbe onFirstCommit={probe} />
        </>,
        { queryClient },
      );
      await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(10));
      cleanup();
      return seen;
    };
    expect(await firstCommit(false)).toEqual({ articles: 10, skeleton: false });
    expect(await firstCommit(true)).toEqual({ articles: 0, skeleton: true });
  });

  it('flattens pages without duplicates', () => {
    const a = makePost(2);
    const b = makePost(1);
    expect(flattenPosts([{ list: [a, b] }, { list: [b] }]).map((p) => p.id)).toEqual([2, 1]);
  });
});

describe('PostCard', () => {
  beforeEach(() => vi.spyOn(window, 'scrollTo').mockImplementation(() => {}));
  afterEach(() => {
    cleanup();
    act(() => useGalleryStore.getState().close());
    vi.restoreAllMocks();
  });

  it('shows author, chips, counts, badge, code card, images, and opens the detail on click', async () => {
    const post = makePost(42, {
      is_good: true,
      like_count: 1550,
      content: '看看这个 https://time.geekbang.org/column/1 不错',
      attach: [
        { type: 'image', url: '/img/a', width: 750, height: 1334 },
        { type: 'image', url: '/img/b', width: 1200, height: 800 },
        { type: 'code', uuid: 'u-1', language: 'go', title: 'main.go', preview: 'package main\nfunc main() {}' },
      ],
    });
    const { router } = renderWithProviders(<PostCard post={post} />);
    const author = await screen.findByRole('link', { name: '作者42' });
    expect(author.getAttribute('href')).toBe('/usercenter/142');
    expect(screen.getByText('精华')).toBeTruthy();
    expect(screen.getByLabelText('点赞 1550').textContent).toContain('1.5k');
    expect(screen.getByRole('link', { name: '#我的学习计划#' }).getAttribute('href')).toBe('/topic/comment/7');
    expect(screen.getByRole('link', { name: 'Java 技术栈' }).getAttribute('href')).toBe('/channel/list/1');
    const link = screen.getByRole('link', { name: 'https://time.geekbang.org/column/1' });
    expect(link.getAttribute('target')).toBe('_blank');
    // A card's code snippet comes in a chunk of its own.
    expect((await screen.findByRole('link', { name: /main\.go/ })).getAttribute('href')).toBe('/code/42/u-1');
    const images = screen.getAllByRole('button', { name: /查看大图/ });
    expect(images).toHaveLength(2);
    const img = images[0]!.querySelector('img')!;
    expect(img.getAttribute('width')).toBe('750');
    expect(img.getAttribute('height')).toBe('1334');
    expect(img.getAttribute('loading')).toBe('lazy');
    act(() => {
      fireEvent.click(images[1]!);
    });
    expect(useGalleryStore.getState()).toMatchObject({ open: true, index: 1 });
    act(() => useGalleryStore.getState().close());
    await act(async () => {
      fireEvent.click(screen.getByText(/看看这个/));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/message/detail/42'));
  });

  it('a ctrl-click opens the detail in a new window, with the carried parameters', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderWithProviders(<PostCard post={makePost(42)} />, { path: '/?utm_source=wx&plain=1' });
    const text = await screen.findByText(/第 42 条动态/);
    fireEvent.click(text, { ctrlKey: true });
    expect(open).toHaveBeenCalledWith('/message/detail/42?utm_source=wx', '_blank', 'noopener');
  });

  it('summarises a vote', () => {
    expect(votePercent(1, 3)).toBe(33);
    expect(votePercent(0, 0)).toBe(0);
  });
});

describe('PostContent', () => {
  afterEach(() => {
    cleanup();
    useExpandedPostsStore.setState({ expanded: {} });
  });

  it('cuts long text with 展开 and expands it', () => {
    const long = '长'.repeat(120);
    expect(isLongText(long)).toBe(true);
    expect(isLongText('短文本')).toBe(false);
    expect(isLongText('a\nb\nc\nd\ne\nf\ng')).toBe(true);
    expect(collapseText(long).endsWith('...')).toBe(true);
    render(<PostContent postId={1} text={long} />);
    const toggle = screen.getByRole('button', { name: '展开' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByText(/长+\.\.\./)).toBeTruthy();
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: '收起' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText(long)).toBeTruthy();
  });

  it('stays expanded when the feed comes back (kept-alive /home remounts it)', () => {
    const long = '长'.repeat(200);
    render(<PostContent postId={3} text={long} />);
    fireEvent.click(screen.getByRole('button', { name: '展开' }));
    cleanup();
    render(<PostContent postId={3} text={long} />);
    expect(screen.getByRole('button', { name: '收起' })).toBeTruthy();
    expect(screen.getByText(long)).toBeTruthy();
    cleanup();
    // Another post is not affected.
    render(<PostContent postId={4} text={long} />);
    expect(screen.getByRole('button', { name: '展开' })).toBeTruthy();
  });

  it('shows a card’s text as the reader sees it: no Markdown syntax, formulas without their dollars, typed tags as text', async () => {
    await loadMarkdownRemover();
    const text = '# 标题\n**加粗**和*斜体*，`code` 与 $E=mc^2$，价格 $5 and $10\n- 一\n- 二\n> 引用\n[链接](https://a.cn) <b>不是标签</b>\nsnake_case_name';
    expect(cardText(text)).toEqual({
      // Seven lines: cut after the sixth.
      shown: '标题\n加粗和斜体，code 与 E=mc^2，价格 $5 and $10\n• 一\n• 二\n引用\n链接 <b>不是标签</b>...',
      long: true,
    });
    expect(cardText('a_b_c **粗** 1 * 2 * 3')).toEqual({ shown: 'a_b_c 粗 1 * 2 * 3', long: false });
    // Whatever looks like HTML stays as typed.
    const typed = '</script><script>alert(1)</script><!-- & <b> 1 <2 or 3> 4';
    expect(cardText(typed)).toEqual({ shown: typed, long: false });
    render(<PostContent postId={5} text={'**加粗** $$x^2$$'} />);
    expect(screen.getByText('加粗 x^2')).toBeTruthy();
    // Cut as the reader sees it: 150 units of text, not of syntax.
    const long = `**${'长'.repeat(100)}**`;
    expect(cardText(long).shown).toBe(`${'长'.repeat(75)}...`);
  });

  it('leaves remove-markdown out of a text that holds no Markdown: it would leave the text as it is', () => {
    const pieces = fc.constantFrom('学习', 'a', 'Go', '1', '2.', ' ', '\n', '\n\n', '，', '。', '!', '?', '(', ')', '-', '+', '#', '>', '=', '"', "'", ':', '/', '%', '@', '{', '}', ';', 'é', '😀', '    ');
    const texts = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));
    let held = 0;
    fc.assert(
      fc.property(texts, (text) => {
        if (!holdsNoMarkdown(text)) return;
        held += 1;
        expect(removeMarkdown(text, { listUnicodeChar: '•' })).toBe(text);
        expect(cardText(text).waiting).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
    // Enough of the texts hold none for the property to say something.
    expect(held).toBeGreaterThan(200);
  });

  it('never cuts on the detail page', () => {
    render(<PostContent postId={2} text={'长'.repeat(200)} full />);
    expect(screen.queryByRole('button', { name: '展开' })).toBeNull();
  });
});
