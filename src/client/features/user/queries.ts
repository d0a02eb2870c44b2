/** A user's profile and posts (/usercenter/$id). The only source of these query keys. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Paged, Post, UserInfo } from '#shared/schemas.ts';
import { request } from '../../lib/http.ts';

export const USER_POSTS_PAGE_SIZE = 10;

/** SPEC.md section 7: a numeric id is visit_user_id, anything else visit_ucode. */
export type VisitUser = { visit_user_id: number } | { visit_ucode: string };

export function visitUserOf(id: string): VisitUser {
  const trimmed = id.trim();
  return /^\d+$/.test(trimmed) && Number(trimmed) > 0 ? { visit_user_id: Number(trimmed) } : { visit_ucode: trimmed };
}

const visitKey = (visit: VisitUser) => ('visit_user_id' in visit ? `id:${visit.visit_user_id}` : `ucode:${visit.visit_ucode}`);

export const userKeys = {
  info: (visit: VisitUser) => ['user', visitKey(visit), 'info'] as const,
  posts: (visit: VisitUser) => ['user', visitKey(visit), 'posts'] as const,
};

export function userInfoQueryOptions(visit: VisitUser) {
  return queryOptions({
    queryKey: userKeys.info(visit),
    queryFn: ({ signal }): Promise<UserInfo> => request(endpoints.userInfo, { data_mode: 1, ...visit }, { signal }),
  });
}

export function userPostsQueryOptions(visit: VisitUser) {
  return infiniteQueryOptions({
    queryKey: userKeys.posts(visit),
    queryFn: ({ pageParam, signal }): Promise<Paged<Post>> =>
      request(endpoints.userPosts, { ...visit, index: pageParam, size: USER_POSTS_PAGE_SIZE }, { signal }),
    initialPageParam: 0,
    getNextPageParam: (lastPage) => (lastPage.page.more ? lastPage.page.next_index : undefined),
  });
}
