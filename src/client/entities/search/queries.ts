/**
 * Search (search/): the one factory of its query and the one owner of its keys. The posts it
 * finds are cached as a list of posts (postKeys.search), so every change to a post (a like, a
 * vote, a delete, a follow of its author) reaches the results as it reaches the feeds; topics,
 * channels and users are kept as the hits they are.
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { SearchType } from '#shared/constants.ts';
import type { Paged, Post, SearchExcerpt, SearchHit } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';
import { postKeys } from '../post/queries.ts';

export const SEARCH_PAGE_SIZE = 20;

/** A hit that is not a post: shown as found. */
export type OtherHit = Exclude<SearchHit, { type: 'post' }>;

/**
 * One page of results: the posts found as a page of posts (`list`, which cache.ts keeps up to
 * date) with each one's excerpt by id, or the other hits.
 */
export interface SearchPage extends Paged<Post> {
  excerpts: Record<number, SearchExcerpt>;
  others: OtherHit[];
}

export const searchKeys = {
  all: ['search'] as const,
  results: (q: string, type: SearchType) => (type === 'post' ? postKeys.search(q) : (['search', type, q] as const)),
};

export function toSearchPage(answer: Paged<SearchHit>): SearchPage {
  const page: SearchPage = { list: [], excerpts: {}, others: [], page: answer.page };
  for (const hit of answer.list) {
    if (hit.type === 'post') {
      page.list.push(hit.post);
      page.excerpts[hit.post.id] = hit.excerpt;
    } else {
      page.others.push(hit);
    }
  }
  return page;
}

/** Results for `q` (already searchText) of one kind, page by page. Persisted like every read: seen once, readable offline. */
export function searchQueryOptions(q: string, type: SearchType) {
  return infiniteQueryOptions({
    queryKey: searchKeys.results(q, type),
    queryFn: async ({ pageParam, signal }): Promise<SearchPage> =>
      toSearchPage(await request(endpoints.search, { q, type, index: pageParam, size: SEARCH_PAGE_SIZE }, { signal })),
    ...keysetPaging,
    enabled: q !== '',
  });
}
