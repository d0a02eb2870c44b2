/** Who liked a post (/message/detail/$id). The only source of these query keys. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Paged, UserBrief } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';

export const LIKERS_PAGE_SIZE = 20;

export const likerKeys = {
  post: (postId: number) => ['likers', postId] as const,
};

/** Who liked a post, newest first. */
export function likersQueryOptions(postId: number) {
  return infiniteQueryOptions({
    queryKey: likerKeys.post(postId),
    queryFn: ({ pageParam, signal }): Promise<Paged<UserBrief>> =>
      request(endpoints.likeList, { post_id: postId, index: pageParam, size: LIKERS_PAGE_SIZE }, { signal }),
    ...keysetPaging,
  });
}
