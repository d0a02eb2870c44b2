/** One code snippet (/code/$postid/$uuid). The only source of this query key. */
import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { CodeSnippet } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';

export const codeKeys = {
  detail: (postId: number, uuid: string) => ['code', postId, uuid] as const,
};

export function codeDetailQueryOptions(postId: number, uuid: string) {
  return queryOptions({
    queryKey: codeKeys.detail(postId, uuid),
    queryFn: ({ signal }): Promise<CodeSnippet> => request(endpoints.codeDetail, { post_id: postId, uuid }, { signal }),
  });
}
