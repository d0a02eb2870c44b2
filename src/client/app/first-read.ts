/**
 * The read a first visit's page carries (src/shared/first-screen.ts), put in the query cache
 * before the first render, where the page's loader and components look for it: the first
 * screen renders at once, without a call. Also what the server's render of that screen is fed
 * (first-screen.server.tsx), so both render from the same cache.
 */
import type { QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { FIRST_READ_ELEMENT_ID, firstReadOf, type FirstReadAnswer } from '#shared/first-screen.ts';
import { putFirstFeedPage } from '../entities/post/first-feed-page.ts';
import { postDetailQueryOptions } from '../entities/post/queries.ts';
import { userInfoQueryOptions } from '../entities/user/queries.ts';
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
};

export function putFirstRead(queryClient: QueryClient, read: FirstReadAnswer): void {
  (putByEndpoint[read.endpoint] as (queryClient: QueryClient, read: FirstReadAnswer) => void)(queryClient, read);
}

/** true when the page carried the read of `pathname`'s first screen and the cache now holds it. */
export function adoptFirstRead(queryClient: QueryClient, pathname: string): boolean {
  const element = document.getElementById(FIRST_READ_ELEMENT_ID);
  if (!element?.textContent) return false;
  // Read once: the element is gone before anything else could take it for current.
  element.remove();
  const read = firstReadOf(pathname);
  if (!read || element.dataset.endpoint !== read.endpoint) return false;
  try {
    const data: unknown = answerOf(200, JSON.parse(element.textContent), endpoints[read.endpoint].path);
    putFirstRead(queryClient, { ...read, data } as FirstReadAnswer);
    return true;
  } catch {
    return false;
  }
}
