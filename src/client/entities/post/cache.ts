/**
 * Changing a post everywhere it is cached: every loaded page of every list (feeds, channels,
 * topics, users) and its detail, through setQueriesData on the keys of queries.ts. A like
 * made on a card shows on the detail, and the other way round, without a refetch.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Post } from '#shared/schemas.ts';
import { listedPosts, postKeys, type PostPages } from './queries.ts';

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
  return queryClient.getQueryData<Post>(postKeys.detail(id)) ?? listedPosts(queryClient).find((post) => post.id === id);
}
