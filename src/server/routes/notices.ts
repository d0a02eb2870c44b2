/** Notices of the login user: the list, the unread count, mark-read and the per-type switches. */
import { unreadCountTag } from '#shared/constants.ts';
import { defineHandlers } from '../http/define-endpoint.ts';
import { listNotices, markNoticesRead, noticeSettings, unreadCount } from '../services/notices.ts';
import { writer } from '../services/once.ts';
import type { RouteDeps } from './deps.ts';

export const noticeHandlers = ({ db, config, onReplay }: RouteDeps) => {
  const write = writer(db, config, onReplay);
  return defineHandlers({
    noticeList: ({ input, viewer }) => listNotices(db, viewer, input),

    noticeUnreadCount: async ({ viewer, request, reply }) => {
      const unread = await unreadCount(db, viewer.userId);
      const tag = unreadCountTag(unread.count);
      reply.header('etag', tag);
      // The client already holds this count: nothing to send or to parse.
      if (request.headers['if-none-match'] === tag) reply.code(304);
      return unread;
    },

    noticeRead: ({ input, viewer }) =>
      write({ endpoint: 'noticeRead', viewer, input }, (tx) => markNoticesRead(tx, viewer.userId, input.up_to_id)),

    noticeSettings: ({ input, viewer }) => {
      const { client_id: _clientId, ...change } = input;
      // Reading the switches is no write: it counts against no limit.
      if (Object.values(change).every((value) => value === undefined)) return noticeSettings(db, viewer.userId, {});
      return write({ endpoint: 'noticeSettings', viewer, input }, (tx) => noticeSettings(tx, viewer.userId, change));
    },
  });
};
