/**
 * The login user's unread count, read on focus, on reconnect and every minute while visible
 * (entities/notice/queries.ts); when it grows, the cached lists are read again, and only then.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { noticeKeys, unreadNoticesQueryOptions } from '../../entities/notice/queries.ts';
import { sessionQueryOptions } from '../../entities/session/queries.ts';
import { showAppBadge } from './app-badge.ts';

/** The unread count of whoever is logged in: undefined when logged out or not known yet. */
export function useUnreadNotices(): number | undefined {
  const queryClient = useQueryClient();
  const uid = useQuery(sessionQueryOptions()).data?.uid;
  const count = useQuery({ ...unreadNoticesQueryOptions(uid ?? 0), enabled: uid !== undefined }).data;
  const shown = uid === undefined ? undefined : count;
  const before = useRef<number | undefined>(undefined);
  useEffect(() => {
    showAppBadge(shown ?? 0);
    if (uid !== undefined && shown !== undefined && before.current !== undefined && shown > before.current) {
      void queryClient.invalidateQueries({ queryKey: noticeKeys.lists(uid) });
    }
    before.current = shown;
  }, [queryClient, uid, shown]);
  // Gone with the login (logged out, another user): the icon shows nothing of theirs.
  useEffect(() => () => showAppBadge(0), []);
  return shown;
}
