/**
 * The comments of a post detail render after the post: even when they are at hand as the page
 * mounts (fetched alongside the post), the first commit holds their skeleton, and they follow in
 * a background render (a transition React does in slices), so the detail's first render is not
 * one long task.
 */
import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { CommentList } from '../../src/client/features/post/components/CommentList.tsx';
import { commentsQueryOptions } from '../../src/client/entities/comment/queries.ts';
import { makeComment, stubApi } from './fixtures.ts';
import { FirstCommitProbe, renderWithProviders } from './render-in-app.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const comment = makeComment(11, {
  post_id: 1,
  user: { uid: 2, ucode: 'U2', nick: '评论者', avatar: '', is_follow: false },
  content: '写得真好，学到了',
});

it('holds the skeleton in its first commit with the comments at hand, then shows them', async () => {
  stubApi();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const options = commentsQueryOptions(1);
  await queryClient.prefetchInfiniteQuery(options);
  queryClient.setQueryData(options.queryKey, (old) => old && { ...old, pages: [{ ...old.pages[0]!, list: [comment] }] });
  let firstCommit: { comments: number; skeleton: boolean } | undefined;
  const probe = () => {
    firstCommit = {
      comments: document.querySelectorAll('.comment-item').length,
      skeleton: document.querySelector('[aria-label="评论加载中"], [aria-busy="true"]') !== null,
    };
  };
  renderWithProviders(
    <>
      <CommentList postId={1} total={1} postAuthorUid={1} onReply={() => {}} />
      <FirstCommitProbe onFirstCommit={probe} />
    </>,
    { queryClient },
  );
  await waitFor(() => expect(screen.getByText('写得真好，学到了')).toBeTruthy());
  expect(firstCommit).toEqual({ comments: 0, skeleton: true });
});
