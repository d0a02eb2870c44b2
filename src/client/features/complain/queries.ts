/** The reasons a complaint may give (complain/reasons). The only source of this query key. */
import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import { request } from '../../lib/http.ts';

export const complainKeys = { reasons: ['complain', 'reasons'] as const };

export function complainReasonsQueryOptions() {
  return queryOptions({
    queryKey: complainKeys.reasons,
    queryFn: async ({ signal }) => (await request(endpoints.complainReasons, {}, { signal })).list,
    staleTime: Infinity,
  });
}
