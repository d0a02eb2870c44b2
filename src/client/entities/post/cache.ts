/**
 * Changing a post everywhere it is cached: every loaded page of every list (feeds, channels,
 * topics, users) and its detail, through setQueriesData on the keys of queries.ts. A like
 * made on a card shows on the detail, and the other way round, without a refetch.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Paged, Post } from '#shared/schemas.ts';
import { postKeys } from './queries.ts';

type PostPages = InfiniteData<Paged<Post>, number>;

function mapListPosts(queryClient: QueryClient, change: (list: Post[]) => Post[]): void {
  queryClient.setQueriesData<PostPages>({ queryKey: postKeys.lists }, (data) => {
    if (!data) return data;
    let changed = false;
    const pages = data.pages.map((page) => {
      const list = change(page.list);
      if (list === page.list) return page;
      changed = true;
      return { ...page, list };
    });
    return changed ? { ...data, pages } : data;
  });
}

/** Applies `fn` to every cached copy of the post that matches. Copies left alone keep their identity. */
export function updatePostsWhere(queryClient: QueryClient, matches: (post: Post) => boolean, fn: (post: Post) => Post): void {
  mapListPosts(queryClient, (list) => (list.some(matches) ? list.map((post) => (matches(post) ? fn(post) : post)) : list));
  queryClient.setQueriesData<Post>({ queryKey: postKeys.details }, (post) => (post && matches(post) ? fn(post) : post));
}

/** Applies `fn` to post `id` in every list page and in its detail. */
export function updatePost(queryClient: QueryClient, id: number, fn: (post: Post) => Post): void {
  updatePostsWhere(queryClient, (post) => post.id === id, fn);
}

/** Takes post `id` out of every list and forgets its detail (a deleted post). */
export function removePost(queryClient: QueryClient, id: number): void {
  mapListPosts(queryClient, (list) => (list.some((post) => post.id === id) ? list.filter((post) => post.id !== id) : list));
  queryClient.removeQueries({ queryKey: postKeys.detail(id), exact: true });
}

/** The cached copy of post `id` (its detail, else any list page), to act on what the user sees. */
export function cachedPost(queryClient: QueryClient, id: number): Post | undefined {
  const detail = queryClient.getQueryData<Post>(postKeys.detail(id));
  if (detail) return detail;
  for (const [, data] of queryClient.getQueriesData<PostPages>({ queryKey: postKeys.lists })) {
    const found = data?.pages.flatMap((page) => page.list).find((post) => post.id === id);
    if (found) return found;
  }
  return undefined;
}

/**
 * A post just written leads every cached list it belongs to: all posts, each of its channels
 * and topics, its author's posts (loaded pages only; the rest is fetched as usual).
 */
export function prependPost(queryClient: QueryClient, post: Post): void {
  const belongs = (key: readonly unknown[]): boolean => {
    const [, , kind, source] = key;
    if (kind === 'feed' && typeof source === 'object' && source !== null) {
      if ('tab' in source) return source.tab === 'all';
      if ('channelId' in source) return post.channels.some((channel) => channel.channel_id === source.channelId);
    }
    if (kind === 'topic') return post.topics.some((topic) => topic.topic_id === source);
    if (kind === 'user') return source === `id:${post.user.uid}` || source === `ucode:${post.user.ucode}`;
    return false;
  };
  for (const query of queryClient.getQueryCache().findAll({ queryKey: postKeys.lists })) {
    if (!belongs(query.queryKey)) continue;
    queryClient.setQueryData<PostPages>(query.queryKey, (data) => {
      const first = data?.pages[0];
      if (!data || !first || data.pages.some((page) => page.list.some((p) => p.id === post.id))) return data;
      return { ...data, pages: [{ ...first, list: [post, ...first.list] }, ...data.pages.slice(1)] };
    });
  }
  queryClient.setQueryData(postKeys.detail(post.id), post);
}
