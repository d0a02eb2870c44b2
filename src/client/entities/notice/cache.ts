/** Changing what the cache shows of a user's notices: their unread count and each notice's unread mark. */
import type { QueryClient } from '@tanstack/react-query';
import type { NoticeSettings } from '#shared/schemas.ts';
import { noticeKeys, type NoticePages } from './queries.ts';

export function setUnreadNotices(queryClient: QueryClient, uid: number, count: number): void {
  queryClient.setQueryData<number>(noticeKeys.unread(uid), count);
}

/** The cached notices of every tab marked read: all of them, or those at or below `upToId` in the 全部 list. */
function markRead(queryClient: QueryClient, uid: number, read: (id: number) => boolean): void {
  queryClient.setQueriesData<NoticePages>({ queryKey: noticeKeys.lists(uid) }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            list: page.list.map((notice) => (notice.unread && read(notice.id) ? { ...notice, unread: false } : notice)),
          })),
        }
      : data,
  );
}

/**
 * Shows the notices read up to `upToId` (all when absent): the unread count less the unread
 * notices seen, as the 全部 list orders them.
 */
export function showNoticesRead(queryClient: QueryClient, uid: number, upToId: number | undefined): void {
  const all = queryClient.getQueryData<NoticePages>(noticeKeys.list(uid, 'all'))?.pages.flatMap((page) => page.list) ?? [];
  const from = upToId === undefined ? 0 : all.findIndex((notice) => notice.id === upToId);
  const seen = from < 0 ? [] : all.slice(from);
  const unread = queryClient.getQueryData<number>(noticeKeys.unread(uid));
  if (upToId === undefined || from === 0) setUnreadNotices(queryClient, uid, 0);
  else if (unread !== undefined) setUnreadNotices(queryClient, uid, Math.max(0, unread - seen.filter((notice) => notice.unread).length));
  const seenIds = new Set(seen.map((notice) => notice.id));
  markRead(queryClient, uid, (id) => upToId === undefined || seenIds.has(id));
}

/** What the server says is left unread: none, so every notice shown is read; else the lists are read again. */
export function applyUnreadLeft(queryClient: QueryClient, uid: number, count: number): void {
  setUnreadNotices(queryClient, uid, count);
  if (count === 0) markRead(queryClient, uid, () => true);
  else void queryClient.invalidateQueries({ queryKey: noticeKeys.lists(uid) });
}

/** Whether anything cached shows an unread notice (the count, or a notice of a list). */
export function hasUnreadNotices(queryClient: QueryClient, uid: number): boolean {
  if ((queryClient.getQueryData<number>(noticeKeys.unread(uid)) ?? 0) > 0) return true;
  return queryClient
    .getQueriesData<NoticePages>({ queryKey: noticeKeys.lists(uid) })
    .some(([, data]) => data?.pages.some((page) => page.list.some((notice) => notice.unread)));
}

export function cachedNoticeSettings(queryClient: QueryClient, uid: number): NoticeSettings | undefined {
  return queryClient.getQueryData<NoticeSettings>(noticeKeys.settings(uid));
}

export function setNoticeSettings(queryClient: QueryClient, uid: number, settings: NoticeSettings): void {
  queryClient.setQueryData<NoticeSettings>(noticeKeys.settings(uid), settings);
}
