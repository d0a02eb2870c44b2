/**
 * A login user's notices (/notice), their unread count and their settings. The only source of
 * these query keys; they sit under the session's key, so logging out drops them.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { unreadCountTag } from '#shared/constants.ts';
import { endpoints } from '#shared/endpoints.ts';
import type { Notice, NoticeSettings, NoticeTab, Paged } from '#shared/schemas.ts';
import { isApiError, request } from '../../lib/http.ts';
import { keysetPaging } from '../../lib/paging.ts';
import { sessionKeys } from '../session/queries.ts';

export const NOTICE_PAGE_SIZE = 20;
/** The count is read again on focus, on reconnect and every minute while the page is visible (as the feed looks for new posts), not more often than this. */
export const UNREAD_FRESH_MS = 5_000;
export const UNREAD_CHECK_MS = 60_000;

export const noticeKeys = {
  all: (uid: number) => [...sessionKeys.all, 'notices', uid] as const,
  unread: (uid: number) => [...sessionKeys.all, 'notices', uid, 'unread'] as const,
  lists: (uid: number) => [...sessionKeys.all, 'notices', uid, 'list'] as const,
  list: (uid: number, tab: NoticeTab) => [...sessionKeys.all, 'notices', uid, 'list', tab] as const,
  settings: (uid: number) => [...sessionKeys.all, 'notices', uid, 'settings'] as const,
};

export function unreadNoticesQueryOptions(uid: number) {
  return queryOptions({
    queryKey: noticeKeys.unread(uid),
    queryFn: async ({ signal, client }): Promise<number> => {
      const known = client.getQueryData<number>(noticeKeys.unread(uid));
      const headers: Record<string, string> = known === undefined ? {} : { 'if-none-match': unreadCountTag(known) };
      try {
        return (await request(endpoints.noticeUnreadCount, {}, { signal, headers })).count;
      } catch (error) {
        // 304: the count held here is still the server's.
        if (known !== undefined && isApiError(error) && error.status === 304) return known;
        throw error;
      }
    },
    staleTime: UNREAD_FRESH_MS,
    refetchInterval: UNREAD_CHECK_MS,
    meta: { silent: true, ownedBy: uid },
  });
}

export type NoticePages = { pages: Paged<Notice>[]; pageParams: unknown[] };

export function noticesQueryOptions(uid: number, tab: NoticeTab) {
  return infiniteQueryOptions({
    queryKey: noticeKeys.list(uid, tab),
    queryFn: ({ pageParam, signal }): Promise<Paged<Notice>> =>
      request(endpoints.noticeList, { type: tab, index: pageParam, size: NOTICE_PAGE_SIZE }, { signal }),
    ...keysetPaging,
    meta: { ownedBy: uid },
  });
}

export function noticeSettingsQueryOptions(uid: number) {
  return queryOptions({
    queryKey: noticeKeys.settings(uid),
    queryFn: ({ signal }): Promise<NoticeSettings> => request(endpoints.noticeSettings, {}, { signal }),
    meta: { ownedBy: uid },
  });
}
