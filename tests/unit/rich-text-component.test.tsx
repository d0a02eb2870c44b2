/**
 * ui/RichText.tsx and the feed's PostContent: the text as written until the renderer has loaded,
 * then rendered; a collapsed feed card never loads the renderer; 展开 and the detail page do; the
 * cut works on rendered content; in-app links navigate inside the app.
 */
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PostContent } from '../../src/client/features/feed/components/PostContent.tsx';
import { useExpandedPostsStore } from '../../src/client/features/feed/expanded-posts-store.ts';

/** How often each lazy module was loaded (the real modules still load). */
const loads = vi.hoisted(() => ({ richText: 0, renderer: 0 }));
vi.mock('../../src/client/ui/RichText.tsx', async (importOriginal) => {
  loads.richText += 1;
  return importOriginal();
});
vi.mock('../../src/client/ui/rich-text/renderer.ts', async (importOriginal) => {
  loads.renderer += 1;
  return importOriginal();
});

afterEach(() => {
  cleanup();
  useExpandedPostsStore.setState({ expanded: {} });
});

const LONG_MARKDOWN = `# 标题\n\n${'这是一段很长的正文。'.repeat(12)}\n\n- 列表项 https://example.com/a`;

describe('PostContent in a feed', () => {
  it('shows a collapsed card as written until remove-markdown is here, then without its Markdown syntax, and never loads the renderer', async () => {
    render(<PostContent postId={1} text={LONG_MARKDOWN} />);
    render(<PostContent postId={2} text={'短文本 **粗体** $x$'} />);
    expect(screen.getByRole('button', { name: '展开' })).toBeTruthy();
    // The first texts with syntax in this file: remove-markdown's code is on its way.
    expect(screen.getByText('短文本 **粗体** $x$')).toBeTruthy();
    expect(await screen.findByText(/^标题/)).toBeTruthy();
    expect(screen.getByText('短文本 粗体 x')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(loads.richText).toBe(0);
    expect(loads.renderer).toBe(0);
  });

  it('renders the whole text after 展开, as written until the renderer is there, and folds it again', async () => {
    const { container } = render(<PostContent postId={3} text={LONG_MARKDOWN} />);
    fireEvent.click(screen.getByRole('button', { name: '展开' }));
    // At once: the whole text as written, in the same box.
    expect(container.querySelector('.post-content__text')?.textContent).toBe(LONG_MARKDOWN);
    const heading = await screen.findByRole('heading', { name: '标题' });
    expect(heading.closest('.rich-text--rendered')).not.toBeNull();
    expect(loads.richText).toBe(1);
    expect(loads.renderer).toBe(1);
    const link = screen.getByRole('link', { name: 'https://example.com/a' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    fireEvent.click(screen.getByRole('button', { name: '收起' }));
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.getByText(/^标题/)).toBeTruthy();
  });

  it('shows an expanded post rendered at once when it comes back (a kept-alive feed keeps its height)', async () => {
    render(<PostContent postId={4} text={LONG_MARKDOWN} />);
    fireEvent.click(screen.getByRole('button', { name: '展开' }));
    await screen.findByRole('heading', { name: '标题' });
    cleanup();
    render(<PostContent postId={4} text={LONG_MARKDOWN} />);
    // Synchronously, with no plain text in between.
    expect(screen.getByRole('heading', { name: '标题' })).toBeTruthy();
  });

  it('renders the full text at once, with no stand-in first, once its page has preloaded the rich form (a post’s hydration in one pass)', async () => {
    vi.resetModules();
    const fresh = await import('../../src/client/features/feed/components/PostContent.tsx');
    await fresh.preloadRichText();
    const { container } = render(<fresh.PostContent postId={6} text={'质能方程 $E=mc^2$'} full />);
    // The first commit is already the rich text's own box (as written until the renderer is
    // there), not the Suspense stand-in that React.lazy's first render of loaded code shows.
    expect(container.querySelector('.post-content > .rich-text.post-content__text')).not.toBeNull();
    await waitFor(() => expect(container.querySelector('.post-content .katex annotation')?.textContent).toBe('E=mc^2'));
  });

  it('renders the full text on the detail page', async () => {
    render(<PostContent postId={5} text={'质能方程 $E=mc^2$'} full />);
    await waitFor(() => expect(document.querySelector('.post-content .katex annotation')?.textContent).toBe('E=mc^2'));
    expect(screen.queryByRole('button', { name: '展开' })).toBeNull();
  });
});

describe('RichText', () => {
  function inRouter(ui: ReactNode) {
    const root = createRootRoute({ component: () => <>{ui}</> });
    const routeTree = root.addChildren([createRoute({ getParentRoute: () => root, path: '$' })]);
    const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: ['/home'] }) });
    render(<RouterProvider router={router} />);
    return router;
  }

  it('is the text as written with its links until rendered, then Markdown in the same box', async () => {
    const { RichText } = await import('../../src/client/ui/RichText.tsx');
    // A text never rendered before: the first render cannot have it yet.
    const text = `## 小节 ${Math.random()}\n\n正文 https://example.com/x`;
    const { container } = render(<RichText text={text} className="comment__text" />);
    const box = container.firstElementChild!;
    expect(box.className).toBe('rich-text comment__text rich-text--plain');
    expect(box.textContent).toBe(text);
    expect(screen.getByRole('link').getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    await screen.findByRole('heading', { level: 2 });
    expect(container.firstElementChild!.className).toBe('rich-text comment__text rich-text--rendered');
  });

  it('renders nothing for empty text', async () => {
    const { RichText } = await import('../../src/client/ui/RichText.tsx');
    const { container } = render(<RichText text={'  \n '} />);
    expect(container.innerHTML).toBe('');
  });

  it('cuts rendered content (the poster) with ..., never inside a formula', async () => {
    const { RichText } = await import('../../src/client/ui/RichText.tsx');
    const text = `${'长'.repeat(148)}$E=mc^2$${'长'.repeat(10)}`;
    const { container } = render(<RichText text={text} cut={{ length: 150, lines: 6 }} />);
    await waitFor(() => expect(container.querySelector('.rich-text--rendered')).not.toBeNull());
    expect(container.textContent).toBe(`${'长'.repeat(75)}...`);
    expect(container.querySelector('.katex')).toBeNull();
  });

  it('follows an in-app link inside the app, and leaves external links to the browser', async () => {
    const { RichText } = await import('../../src/client/ui/RichText.tsx');
    const router = inRouter(<RichText text="[看这条](/message/detail/7?tab=1) 和 [外站](https://example.com/)" />);
    const inApp = await screen.findByRole('link', { name: '看这条' });
    await waitFor(() => expect(inApp.closest('.rich-text--rendered')).not.toBeNull());
    const clicked = fireEvent.click(inApp);
    expect(clicked).toBe(false); // default prevented: no page load
    await waitFor(() => expect(router.state.location.href).toBe('/message/detail/7?tab=1'));
    const external = screen.getByRole('link', { name: '外站' });
    expect(external.getAttribute('target')).toBe('_blank');
    expect(fireEvent.click(external)).toBe(true); // the browser opens it in a new window
    expect(router.state.location.href).toBe('/message/detail/7?tab=1');
  });
});
