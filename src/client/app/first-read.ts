/**
 * The reads a first visit's page carries (src/shared/first-screen.ts), put in the query cache
 * before the first render, where the page's loader and components look for them: the first
 * screen renders at once, without a call. Also what the server's render of that screen is fed
 * (first-screen.server.tsx), so both render from the same cache.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { FIRST_READ_ATTRIBUTE, firstScreenOf, KEPT_AT_ATTRIBUTE, type FirstReadAnswer } from '#shared/first-screen.ts';
import { putFirstFeedPage } from '../entities/post/first-feed-page.ts';
import { postDetailQueryOptions, userPostsQueryOptions } from '../entities/post/queries.ts';
import { commentKeys } from '../entities/comment/keys.ts';
import { userInfoQueryOptions } from '../entities/user/queries.ts';
import { markCarriedByPage } from '../lib/carried-by-page.ts';
import { answerOf } from '../lib/http.ts';

type PutFirstRead = {
  [K in FirstReadAnswer['endpoint']]: (queryClient: QueryClient, read: Extract<FirstReadAnswer, { endpoint: K }>, updatedAt?: number) => QueryKey;
};

/** Where each read goes: the query its page's first fetch would fill (its key returned), fetched at `updatedAt` (now if not said). */
const putByEndpoint: PutFirstRead = {
  channelPosts: (queryClient, { data }, updatedAt) => putFirstFeedPage(queryClient, data, updatedAt),
  postDetail: (queryClient, { input, data }, updatedAt) => {
    const { queryKey } = postDetailQueryOptions(input.post_id);
    queryClient.setQueryData(queryKey, data, { updatedAt });
    return queryKey;
  },
  commentList: (queryClient, { input, data }, updatedAt) =>
    putListsFirstPage(queryClient, commentKeys.post(input.post_id), data, input.index, updatedAt),
  userInfo: (queryClient, { input, data }, updatedAt) => {
    const { data_mode: _mode, ...visit } = input;
    const { queryKey } = userInfoQueryOptions(visit);
    queryClient.setQueryData(queryKey, data, { updatedAt });
    return queryKey;
  },
  userPosts: (queryClient, { input, data }, updatedAt) => {
    const { index, size: _size, ...visit } = input;
    return putListsFirstPage(queryClient, userPostsQueryOptions(visit).queryKey, data, index, updatedAt);
  },
};

/**
 * The first page of a list below a page's own read (a profile's posts, a post's comments) as its
 * infinite query's only page, marked carried: the list, which would render it in the background,
 * shows it at once as the page already does.
 */
function putListsFirstPage(queryClient: QueryClient, queryKey: QueryKey, page: unknown, index: number, updatedAt: number | undefined): QueryKey {
  queryClient.setQueryData(queryKey, { pages: [page], pageParams: [index] }, { updatedAt });
  markCarriedByPage(queryKey);
  return queryKey;
}

/** Puts the read where its page looks for it; returns that query's key. */
export function putFirstRead(queryClient: QueryClient, read: FirstReadAnswer, updatedAt?: number): QueryKey {
  return (putByEndpoint[read.endpoint] as (queryClient: QueryClient, read: FirstReadAnswer, updatedAt?: number) => QueryKey)(
    queryClient,
    read,
    updatedAt,
  );
}

/**
 * Puts in the cache each read of `pathname`'s first screen that the page carried; true when the
 * page's own read (its first) was one of them, so the first screen can render at once. A page
 * the service worker kept (sw/kept-first-screen.ts) says when it kept it: its reads are put as
 * fetched then, shown at once and fetched again once shown (as a restored cache is), and what is
 * newer in this device's storage may take their place (entities/post/first-feed-page.ts).
 */
export function adoptFirstReads(queryClient: QueryClient, pathname: string): boolean {
  const elements = [...document.querySelectorAll<HTMLScriptElement>(`script[${FIRST_READ_ATTRIBUTE}]`)];
  // Read once: the elements are gone before anything else could take them for current.
  for (const element of elements) element.remove();
  const plan = firstScreenOf(pathname);
  if (!plan) return false;
  const adopted = plan.reads.map((read) => {
    const element = elements.find((candidate) => candidate.getAttribute(FIRST_READ_ATTRIBUTE) === read.endpoint);
    if (!element?.textContent) return false;
    try {
      // Named by the page it came with: a malformed answer is left out below, its error unseen.
      const data: unknown = answerOf(200, JSON.parse(element.textContent), pathname);
      const keptAt = Number(element.getAttribute(KEPT_AT_ATTRIBUTE) ?? NaN);
      const kept = Number.isSafeInteger(keptAt) && keptAt > 0;
      const queryKey = putFirstRead(queryClient, { ...read, data } as FirstReadAnswer, kept ? keptAt : undefined);
      if (kept) void queryClient.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
      return true;
    } catch {
      return false;
    }
  });
  return adopted[0] === true;
}
