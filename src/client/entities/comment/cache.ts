/**
 * Changing a comment or a reply wherever it is cached (the comment lists of the posts shown, and
 * the replies of comments opened), and a post's comment count, which moves with comments added
 * and deleted, its replies' too.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Comment, CommentBase, Paged } from '#shared/schemas.ts';
import type { AppEvent } from '../../lib/app-events.ts';
import { postDetailQueryOptions } from '../post/queries.ts';
import { commentKeys, isRepliesKey } from './keys.ts';

type CommentPages = InfiniteData<Paged<Comment>, number>;
type ReplyPages = InfiniteData<Paged<CommentBase>, number>;

/** How many replies of each comment comment/list carries; the rest come with comment/replies. */
export const CARRIED_REPLIES = 3;

const lists = { queryKey: commentKeys.all, predicate: ({ queryKey }: { queryKey: readonly unknown[] }) => !isRepliesKey(queryKey) };
const replyLists = { queryKey: commentKeys.all, predicate: ({ queryKey }: { queryKey: readonly unknown[] }) => isRepliesKey(queryKey) };

/** Applies `change` to every page of `data` (null drops the item); pages and data left alone keep their identity. */
function mapPages<T>(data: InfiniteData<Paged<T>, number> | undefined, change: (item: T) => T | null) {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    const list = page.list.flatMap((item) => {
      const next = change(item);
      if (next !== item) changed = true;
      return next ? [next] : [];
    });
    return list.length === page.list.length && list.every((item, i) => item === page.list[i]) ? page : { ...page, list };
  });
  return changed ? { ...data, pages } : data;
}

function mapComments(queryClient: QueryClient, change: (comment: Comment) => Comment | null): void {
  queryClient.setQueriesData<CommentPages>(lists, (data) => mapPages(data, change));
}

function mapReplies(queryClient: QueryClient, change: (reply: CommentBase) => CommentBase | null): void {
  queryClient.setQueriesData<ReplyPages>(replyLists, (data) => mapPages(data, change));
}

/** The top-level comments whose opened replies hold reply `id`. */
function rootsHolding(queryClient: QueryClient, id: number): Set<number> {
  const roots = new Set<number>();
  for (const [key, data] of queryClient.getQueriesData<ReplyPages>(replyLists)) {
    if (data?.pages.some((page) => page.list.some((reply) => reply.id === id))) roots.add(Number(key[3]));
  }
  return roots;
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
  mapReplies(queryClient, (reply) => (reply.id === id ? fn(reply) : reply));
}

/** Takes comment or reply `id` out of every cached list. */
export function removeComment(queryClient: QueryClient, id: number): void {
  const roots = rootsHolding(queryClient, id);
  mapComments(queryClient, (comment) => {
    // A comment with replies keeps its place (该评论已删除), as the server keeps it.
    if (comment.id === id) return comment.reply_count > 0 ? { ...comment, content: '', is_deleted: true } : null;
    if (!comment.replies.some((reply) => reply.id === id) && !roots.has(comment.id)) return comment;
    return { ...comment, replies: comment.replies.filter((reply) => reply.id !== id), reply_count: Math.max(0, comment.reply_count - 1) };
  });
  mapReplies(queryClient, (reply) => (reply.id === id ? null : reply));
}

/** The comment or reply `id` as cached, to act on what the user sees. */
export function cachedComment(queryClient: QueryClient, id: number): CommentBase | undefined {
  for (const [, data] of queryClient.getQueriesData<CommentPages>(lists)) {
    for (const comment of data?.pages.flatMap((page) => page.list) ?? []) {
      if (comment.id === id) return comment;
      const reply = comment.replies.find((r) => r.id === id);
      if (reply) return reply;
    }
  }
  for (const [, data] of queryClient.getQueriesData<ReplyPages>(replyLists)) {
    const reply = data?.pages.flatMap((page) => page.list).find((r) => r.id === id);
    if (reply) return reply;
  }
  return undefined;
}

/**
 * The top-level comment of post `postId` that comment or reply `id` is under (itself, when it is
 * one); undefined when nothing cached shows it. Replies are stored flat under it, whichever they answer.
 */
export function rootOfComment(queryClient: QueryClient, postId: number, id: number): Comment | undefined {
  const comments = queryClient.getQueryData<CommentPages>(commentKeys.post(postId))?.pages.flatMap((page) => page.list) ?? [];
  const roots = rootsHolding(queryClient, id);
  return comments.find((comment) => comment.id === id || roots.has(comment.id) || comment.replies.some((reply) => reply.id === id));
}

/**
 * One's own reply, as the server answered it, under top-level comment `rootId` of post `postId`
 * at once (before the lists are read again): counted, among the replies comment/list carries when
 * it is one of the first, and at the end of the comment's opened replies. Already there, it is left.
 */
export function addReply(queryClient: QueryClient, postId: number, rootId: number, reply: CommentBase): void {
  const key = commentKeys.replies(postId, rootId);
  const opened = queryClient.getQueryData<ReplyPages>(key);
  if (cachedComment(queryClient, reply.id) !== undefined) return;
  queryClient.setQueryData<CommentPages>(commentKeys.post(postId), (data) =>
    mapPages(data, (comment) => {
      if (comment.id !== rootId) return comment;
      const carried = comment.replies.length < CARRIED_REPLIES && comment.reply_count <= comment.replies.length;
      return { ...comment, reply_count: comment.reply_count + 1, replies: carried ? [...comment.replies, reply] : comment.replies };
    }),
  );
  if (opened && opened.pages.length > 0) {
    const last = opened.pages.length - 1;
    queryClient.setQueryData<ReplyPages>(key, {
      ...opened,
      pages: opened.pages.map((page, i) => (i === last ? { ...page, list: [...page.list, reply] } : page)),
    });
  }
}

/**
 * The post's comments changed: its count read again (others may have commented meanwhile, and a
 * deleted comment takes its replies with it), as the change every tab applies.
 */
export async function commentsChanged(queryClient: QueryClient, postId: number): Promise<AppEvent[]> {
  const post = await queryClient.fetchQuery({ ...postDetailQueryOptions(postId), staleTime: 0 });
  return [{ type: 'updateCommentNumber', post_id: postId, comment_count: post.comment_count }];
}
