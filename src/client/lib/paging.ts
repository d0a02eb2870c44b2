/**
 * Keyset paging as every list of the contract does it: the first page asks index 0, the next one
 * the previous page's next_index, while page.more says there is more. Spread into
 * infiniteQueryOptions.
 */
import type { Paged } from '#shared/schemas.ts';

export const keysetPaging = {
  initialPageParam: 0,
  getNextPageParam: (lastPage: Paged<unknown>): number | undefined =>
    lastPage.page.more ? lastPage.page.next_index : undefined,
};

/** The items of every loaded page, in order. */
export function pagedItems<T>(pages: readonly Paged<T>[] | undefined): T[] {
  return pages?.flatMap((page) => page.list) ?? [];
}
