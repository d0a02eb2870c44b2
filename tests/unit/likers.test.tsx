/**
 * Who liked a post, on its detail page: the row is there, with grey avatars, while the likers
 * load (the comments under it must not jump down when they arrive), and not at all without likes.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionKeys } from '../../src/client/entities/session/queries.ts';
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

  it('follows the viewer’s own like at once, whatever the last read of the list says (an unlike waiting offline)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // The viewer is 用户2 of the list, shown by their own initial here.
    client.setQueryData(sessionKeys.user, { uid: 2, ucode: 'U2', nick: '我', avatar: '', cellphone: '', ctime: 0, student: 0, usertype: 1 });
    const shown = (liked: boolean, total: number) => (
      <QueryClientProvider client={client}>
        <Likers postId={7} total={total} liked={liked} />
      </QueryClientProvider>
    );
    const { container, rerender } = render(shown(false, 2));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    answerLikers();
    const initials = () => [...container.querySelectorAll('.likers__avatars .liker')].map((liker) => liker.textContent);
    // The list (read before the unlike) still has the viewer: not shown.
    await waitFor(() => expect(initials()).toEqual(['用', '用']));
    rerender(shown(true, 3));
    expect(initials()).toEqual(['我', '用', '用']);
  });

  it('is not there without likes, and asks for nothing', () => {
    const { container } = renderLikers(0);
    expect(container.innerHTML).toBe('');
    expect(fetch).not.toHaveBeenCalled();
  });
});
