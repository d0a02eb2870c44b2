/** What is searched for, as the address, the header's box and the page's field all take it. Its own module: the header needs no more of search. */
import { SEARCH_QUERY_MAX_CHARS } from '#shared/constants.ts';

/** Trimmed and cut to what the server takes ('' when nothing is left). */
export function searchText(raw: string): string {
  return Array.from(raw.trim()).slice(0, SEARCH_QUERY_MAX_CHARS).join('').trim();
}
