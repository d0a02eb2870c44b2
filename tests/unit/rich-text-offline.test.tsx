/**
 * Offline with nothing cached: the renderer's chunk (or RichText's own) does not load. The text
 * still reads, as written with its links, and nothing breaks.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useExpandedPostsStore } from '../../src/client/features/feed/expanded-posts-store.ts';

const failing = vi.hoisted(() => ({ renderer: 0, richText: 0 }));
vi.mock('../../src/client/ui/rich-text/renderer.ts', () => {
  failing.renderer += 1;
  throw new TypeError('Failed to fetch dynamically imported module');
});

afterEach(() => {
  cleanup();
  useExpandedPostsStore.setState({ expanded: {} });
});

/** Until the page's try at loading the code has failed `times` times in all. */
const failedTries = (of: 'renderer' | 'richText', times: number) => waitFor(() => expect(failing[of]).toBeGreaterThanOrEqual(times));

describe('when the renderer cannot load', () => {
  it('RichText keeps the text as written, links included, and tries again next time', async () => {
    const { RichText } = await import('../../src/client/ui/RichText.tsx');
    const text = '# 标题\n\n正文 https://example.com/x';
    const { container } = render(<RichText text={text} />);
    await failedTries('renderer', 1);
    await waitFor(() => expect(container.firstElementChild?.className).toBe('rich-text rich-text--plain'));
    expect(container.textContent).toBe(text);
    expect(screen.getByRole('link', { name: 'https://example.com/x' }).getAttribute('rel')).toBe('noopener noreferrer nofollow ugc');
    expect(screen.queryByRole('heading')).toBeNull();
    const tries = failing.renderer;
    cleanup();
    render(<RichText text={text} />);
    await failedTries('renderer', tries + 1);
    expect(failing.renderer).toBe(tries + 1);
  });

  it('an expanded post still shows all of its text', async () => {
    const { PostContent } = await import('../../src/client/features/feed/components/PostContent.tsx');
    const text = `**粗体** ${'很长的正文。'.repeat(30)}结尾`;
    render(<PostContent postId={1} text={text} />);
    const tries = failing.renderer;
    fireEvent.click(screen.getByRole('button', { name: '展开' }));
    await failedTries('renderer', tries + 1);
    await screen.findByText(text);
    expect(document.querySelector('strong')).toBeNull();
    expect(screen.getByRole('button', { name: '收起' })).toBeTruthy();
  });
});

describe('when RichText itself cannot load', () => {
  it('an expanded post shows all of its text as written', async () => {
    vi.resetModules();
    vi.doMock('../../src/client/ui/RichText.tsx', () => {
      failing.richText += 1;
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const { PostContent } = await import('../../src/client/features/feed/components/PostContent.tsx');
    const { useExpandedPostsStore: store } = await import('../../src/client/features/feed/expanded-posts-store.ts');
    const text = `**粗体** ${'很长的正文。'.repeat(30)}https://example.com/end`;
    render(<PostContent postId={2} text={text} />);
    fireEvent.click(screen.getByRole('button', { name: '展开' }));
    await failedTries('richText', 1);
    await waitFor(() => expect(document.querySelector('.post-content__text')?.textContent).toBe(text));
    expect(document.querySelector('strong, .rich-text')).toBeNull();
    expect(screen.getByRole('link', { name: 'https://example.com/end' })).toBeTruthy();
    store.setState({ expanded: {} });
    vi.doUnmock('../../src/client/ui/RichText.tsx');
  });
});
