/**
 * Changing a comment or a reply wherever it is cached (the comment lists of the posts shown), and
 * a post's comment count, which moves with comments added and deleted, its replies' too.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Comment, CommentBase, Paged } from '#shared/schemas.ts';
import type { AppEvent } from '../../lib/app-events.ts';
import { postDetailQueryOptions } from '../post/queries.ts';
import { commentKeys } from './queries.ts';

type CommentPages = InfiniteData<Paged<Comment>, number>;

function mapComments(queryClient: QueryClient, change: (comment: Comment) => Comment | null): void {
  queryClient.setQueriesData<CommentPages>({ queryKey: commentKeys.all }, (data) => {
    if (!data) return data;
    let changed = false;
    const pages = data.pages.map((page) => {
      const list = page.list.flatMap((comment) => {
        const next = change(comment);
        if (next !== comment) changed = true;
        return next ? [next] : [];
      });
      return list.length === page.list.length && list.every((comment, i) => comment === page.list[i]) ? page : { ...page, list };
    });
    return changed ? { ...data, pages } : data;
  });
}

/** Applies `fn` to comment or reply `id` in every cached list; copies left alone keep their identity. */
export function updateComment(queryClient: QueryClient, id: number, fn: (comment: CommentBase) => CommentBase): void {
  mapComments(queryClient, (comment) => {
    if (comment.id === id) {
      const next = fn(comment);
      return next === comment ? comment : { ...comment, ...next };
    }
    if (!comment.replies.some((reply) => reply.id === id)) return comment;
    return { ...comment, replies: comment.replies.map((reply) => (reply.id === id ? fn(reply) : reply)) };
  });
}

/** Takes comment or reply `id` out of every cached list. */
export function removeComment(queryClient: QueryClient, id: number): void {
  mapComments(queryClient, (comment) => {
    // A comment with replies keeps its place (该评论已删除), as the server keeps it.
    if (comment.id === id) return comment.reply_count > 0 ? { ...comment, content: '', is_deleted: true } : null;
    if (!comment.replies.some((reply) => reply.id === id)) return comment;
    return { ...comment, replies: comment.replies.filter((reply) => reply.id !== id), reply_count: Math.max(0, comment.reply_count - 1) };
  });
}

/** The comment or reply `id` as cached, to act on what the user sees. */
export function cachedComment(queryClient: QueryClient, id: number): CommentBase | undefined {
  for (const [, data] of queryClient.getQueriesData<CommentPages>({ queryKey: commentKeys.all })) {
    for (const comment of data?.pages.flatMap((page) => page.list) ?? []) {
      if (comment.id === id) return comment;
      const reply = comment.replies.find((r) => r.id === id);
      if (reply) return reply;
    }
  }
  return undefined;
}

/**
 * The post's comments changed: its count read again (others may have commented meanwhile, and a
 * deleted comment takes its replies with it), as the change every tab applies.
 */
export async function commentsChanged(queryClient: QueryClient, postId: number): Promise<AppEvent[]> {
  const post = await queryClient.fetchQuery({ ...postDetailQueryOptions(postId), staleTime: 0 });
  return [{ type: 'updateCommentNumber', post_id: postId, comment_count: post.comment_count }];
}
