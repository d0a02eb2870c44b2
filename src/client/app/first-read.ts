/**
 * The reads a first visit's page carries (src/shared/first-screen.ts), put in the query cache
 * before the first render, where the page's loader and components look for them: the first
 * screen renders at once, without a call. Also what the server's render of that screen is fed
 * (first-screen.server.tsx), so both render from the same cache.
 */
import type { QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { FIRST_READ_ATTRIBUTE, firstScreenOf, type FirstReadAnswer } from '#shared/first-screen.ts';
import { putFirstFeedPage } from '../entities/post/first-feed-page.ts';
import { postDetailQueryOptions, userPostsQueryOptions } from '../entities/post/queries.ts';
import { userInfoQueryOptions } from '../entities/user/queries.ts';
import { markCarriedByPage } from '../lib/carried-by-page.ts';
import { answerOf } from '../lib/http.ts';

type PutFirstRead = { [K in FirstReadAnswer['endpoint']]: (queryClient: QueryClient, read: Extract<FirstReadAnswer, { endpoint: K }>) => void };

/** Where each read goes: the query its page's first fetch would fill. */
const putByEndpoint: PutFirstRead = {
  channelPosts: (queryClient, { data }) => putFirstFeedPage(queryClient, data),
  postDetail: (queryClient, { input, data }) => queryClient.setQueryData(postDetailQueryOptions(input.post_id).queryKey, data),
  userInfo: (queryClient, { input, data }) => {
    const { data_mode: _mode, ...visit } = input;
    queryClient.setQueryData(userInfoQueryOptions(visit).queryKey, data);
  },
  userPosts: (queryClient, { input, data }) => {
    const { index, size: _size, ...visit } = input;
    const { queryKey } = userPostsQueryOptions(visit);
    queryClient.setQueryData(queryKey, { pages: [data], pageParams: [index] });
    // Below the profile, these render in the background, unless the page already shows them.
    markCarriedByPage(queryKey);
  },
};

export function putFirstRead(queryClient: QueryClient, read: FirstReadAnswer): void {
  (putByEndpoint[read.endpoint] as (queryClient: QueryClient, read: FirstReadAnswer) => void)(queryClient, read);
}

/**
 * Puts in the cache each read of `pathname`'s first screen that the page carried; true when the
 * page's own read (its first) was one of them, so the first screen can render at once.
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
      const data: unknown = answerOf(200, JSON.parse(element.textContent), endpoints[read.endpoint].path);
      putFirstRead(queryClient, { ...read, data } as FirstReadAnswer);
      return true;
    } catch {
      return false;
    }
  });
  return adopted[0] === true;
}
