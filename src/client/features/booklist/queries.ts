/** A joint book list (/booklist/$code). The only source of this query key. */
import { queryOptions } from '@tanstack/react-query';
import { BOOKLIST_CODE_PATTERN } from '#shared/constants.ts';
import { endpoints } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Booklist } from '#shared/schemas.ts';
import { ApiError, request } from '../../lib/http.ts';

export const booklistKeys = {
  detail: (code: string) => ['booklist', code] as const,
};

export function booklistQueryOptions(code: string) {
  return queryOptions({
    queryKey: booklistKeys.detail(code),
    queryFn: ({ signal }): Promise<Booklist> => {
      // No list has such a code: gone, as the server would say, without asking it.
      if (!BOOKLIST_CODE_PATTERN.test(code)) {
        return Promise.reject(
          new ApiError({ code: ErrorCode.NotFound, msg: '书单不存在或已被删除', kind: 'business', status: 200, path: endpoints.booklistDetail.path }),
        );
      }
      return request(endpoints.booklistDetail, { code }, { signal });
    },
  });
}
