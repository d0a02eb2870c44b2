/** Users as others see them (/usercenter/$id). The only source of these query keys. */
import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { UserInfo } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import type { VisitUser } from '#shared/visit.ts';
import { visitKey } from './visit.ts';

export const userKeys = {
  all: ['users'] as const,
  info: (visit: VisitUser) => ['users', visitKey(visit), 'info'] as const,
};

export function userInfoQueryOptions(visit: VisitUser) {
  return queryOptions({
    queryKey: userKeys.info(visit),
    queryFn: ({ signal }): Promise<UserInfo> => request(endpoints.userInfo, { data_mode: 1, ...visit }, { signal }),
  });
}
