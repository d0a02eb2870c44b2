/**
 * A post just written, put in front of the lists it belongs to. Its own module: only a new post
 * needs it (the composer's addPostSuccess, in this tab or another), so a first visit never loads it.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Post } from '#shared/schemas.ts';
import { postKeys, type PostPages } from './queries.ts';

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

/**
 * Newer posts (newest first) in front of one list's first page, the loaded pages kept; a post
 * the list already shows is not shown twice.
 */
export function prependNewer(queryClient: QueryClient, queryKey: readonly unknown[], posts: readonly Post[]): void {
  queryClient.setQueryData<PostPages>(queryKey, (data) => {
    const first = data?.pages[0];
    if (!data || !first) return data;
    const shown = new Set(data.pages.flatMap((page) => page.list.map((p) => p.id)));
    const fresh = posts.filter((post) => !shown.has(post.id));
    return fresh.length === 0 ? data : { ...data, pages: [{ ...first, list: [...fresh, ...first.list] }, ...data.pages.slice(1)] };
  });
}
