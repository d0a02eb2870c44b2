/**
 * Who liked a post, on its detail page: the row is there, with grey avatars, while the likers
 * load (the comments under it must not jump down when they arrive), and not at all without likes.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Likers } from '../../src/client/features/post/components/Likers.tsx';
import { useLayoutStore } from '../../src/client/platform/layout-store.ts';

const users = [1, 2, 3].map((uid) => ({ uid, ucode: `U${uid}`, nick: `用户${uid}`, avatar: '' }));

let answerLikers: () => void;

beforeEach(() => {
  useLayoutStore.setState({ isMobile: true });
  vi.stubGlobal(
    'fetch',
    vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          answerLikers = () =>
            resolve(
              new Response(JSON.stringify({ code: 0, data: { list: users, page: { more: false, next_index: 3 } } }), {
                headers: { 'content-type': 'application/json' },
              }),
            );
        }),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderLikers(total: number) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Likers postId={7} total={total} />
    </QueryClientProvider>,
  );
}

describe('Likers', () => {
  it('holds its place with grey avatars while the likers load, then shows them', async () => {
    const { container } = renderLikers(3);
    const region = screen.getByRole('region', { name: '赞过的人' });
    expect(region.textContent).toContain('3 人赞过');
    expect(container.querySelectorAll('.likers__avatars .skeleton')).toHaveLength(3);
    answerLikers();
    await waitFor(() => expect(container.querySelectorAll('.likers__avatars .skeleton')).toHaveLength(0));
    expect(container.querySelectorAll('.likers__avatars .liker')).toHaveLength(3);
    expect(screen.getByRole('region', { name: '赞过的人' })).toBe(region);
  });

  it('is not there without likes, and asks for nothing', () => {
    const { container } = renderLikers(0);
    expect(container.innerHTML).toBe('');
    expect(fetch).not.toHaveBeenCalled();
  });
});
