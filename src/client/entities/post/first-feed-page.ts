/**
 * The feed's first page that came inside the page (src/shared/first-screen.ts), put where
 * /home's loader looks for it, so a first visit renders its posts without a call.
 */
import type { QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { FIRST_FEED_PAGE_ELEMENT_ID, FIRST_FEED_PAGE_INPUT } from '#shared/first-screen.ts';
import type { Paged, Post } from '#shared/schemas.ts';
import { answerOf } from '../../lib/http.ts';
import { feedQueryOptions } from './queries.ts';

/** true when the page carried a first page and the cache now holds it. */
export function adoptFirstFeedPage(queryClient: QueryClient): boolean {
  const element = document.getElementById(FIRST_FEED_PAGE_ELEMENT_ID);
  if (!element?.textContent) return false;
  // Read once: the element is gone before anything else could take it for current.
  element.remove();
  try {
    const page = answerOf<Paged<Post>>(200, JSON.parse(element.textContent), endpoints.channelPosts.path);
    queryClient.setQueryData(feedQueryOptions({ tab: FIRST_FEED_PAGE_INPUT.tab }).queryKey, {
      pages: [page],
      pageParams: [FIRST_FEED_PAGE_INPUT.index],
    });
    return true;
  } catch {
    return false;
  }
}
