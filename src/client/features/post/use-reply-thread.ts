import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Comment, CommentBase } from '#shared/schemas.ts';
import { repliesQueryOptions } from '../../entities/comment/queries.ts';
import { pagedItems } from '../../lib/paging.ts';
import { useReplyThreads, useThreadPages } from './reply-threads.ts';

/** The replies of a comment: those comment/list carried, and once opened, every one (fetched in pages) after them, in id order. */
export function shownReplies(carried: readonly CommentBase[], fetched: readonly CommentBase[]): CommentBase[] {
  if (fetched.length === 0) return [...carried];
  const byId = new Map<number, CommentBase>();
  for (const reply of [...carried, ...fetched]) byId.set(reply.id, reply);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * A comment's thread of replies: the ones shown (`replies`), whether it is open (its pages kept
 * in reply-threads.ts, so a reload or a list read again shows as many), `toggle` (共 N 条回复 /
 * 收起回复, whose button is `toggleRef`) and `loadMore` (a next page). `opens` says whether there
 * is more than comment/list carries, so that a toggle is shown at all.
 */
export function useReplyThread(postId: number, comment: Comment) {
  const pages = useThreadPages(postId, comment.id);
  const open = pages > 0;
  const query = useInfiniteQuery({ ...repliesQueryOptions(postId, comment.id), enabled: open });
  const replies = shownReplies(comment.replies, open ? pagedItems(query.data?.pages) : []);
  const opens = comment.reply_count > comment.replies.length || replies.length > comment.replies.length;
  const toggleRef = useRef<HTMLButtonElement>(null);
  // As many pages as the reader had (a reload, a list read again), or to the end for one's own reply.
  const loaded = query.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, isError, fetchNextPage } = query;
  useEffect(() => {
    if (open && hasNextPage && !isFetching && !isError && loaded < pages) void fetchNextPage();
  }, [open, hasNextPage, isFetching, isError, loaded, pages, fetchNextPage]);

  const toggle = () => {
    const { open: show, close } = useReplyThreads.getState();
    if (!open) return show(postId, comment.id);
    close(postId, comment.id);
    // The list above it shrinks: the button stays in sight, under the reader's finger.
    requestAnimationFrame(() => toggleRef.current?.scrollIntoView({ block: 'nearest' }));
  };
  const loadMore = () => {
    useReplyThreads.getState().open(postId, comment.id, loaded + 1);
    void fetchNextPage().then((result) => {
      // 加载更多回复 is gone with the last page: the keyboard's focus goes on from the toggle, not the page's top.
      if (!result.hasNextPage && document.activeElement === document.body) toggleRef.current?.focus();
    });
  };

  return { open, query, replies, opens, toggleRef, toggle, loadMore };
}
