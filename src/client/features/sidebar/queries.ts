/** The sidebar's remote items, appended after its fixed ones from the explore list. */
import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { ExploreItem } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';

export const SIDEBAR_EXPLORE = { page: 'horde', block_name: 'sidebar' } as const; // horde: src/client/README.md ('horde')

export const sidebarKeys = {
  explore: ['explore', SIDEBAR_EXPLORE.page, SIDEBAR_EXPLORE.block_name] as const,
};

export function sidebarExploreQueryOptions() {
  return queryOptions({
    queryKey: sidebarKeys.explore,
    queryFn: async ({ signal }): Promise<ExploreItem[]> =>
      (await request(endpoints.exploreList, SIDEBAR_EXPLORE, { signal })).info.list,
    staleTime: 10 * 60_000,
    // The fixed items work without it: a failure leaves the sidebar short, not broken.
    meta: { silent: true },
  });
}
