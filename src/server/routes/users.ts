/** Users: profiles, their posts and notes, follows, nicknames. */
import { defineHandlers } from '../http/define-endpoint.ts';
import { forgetAuthor } from '../services/authors.ts';
import { loginUserById } from '../services/login.ts';
import { listNotes, saveNote } from '../services/notes.ts';
import { isEmptyPage, listPosts } from '../services/posts.ts';
import { writer } from '../services/once.ts';
import { getUserInfo, resolveUserId, setNick, setUserFollow } from '../services/users.ts';
import type { RouteDeps } from './deps.ts';

export const userHandlers = ({ db, config, onReplay }: RouteDeps) => {
  const write = writer(db, config, onReplay);
  return defineHandlers({
    userInfo: ({ input, viewer }) => getUserInfo(db, input, viewer?.userId ?? null),

    userPosts: async ({ input, viewer }) => {
      if (!('visit_user_id' in input)) return listPosts(db, { kind: 'user', userId: await resolveUserId(db, input) }, input, viewer);
      // By id the page comes first: only an empty one asks whether the user exists (-1005 if not).
      const page = await listPosts(db, { kind: 'user', userId: input.visit_user_id }, input, viewer);
      if (isEmptyPage(page)) await resolveUserId(db, input);
      return page;
    },

    followUser: ({ input, viewer }) =>
      write({ endpoint: 'followUser', viewer, input }, async (tx) => ({
        is_follow: await setUserFollow(tx, viewer.userId, input.user_id, true),
      })),

    unfollowUser: ({ input, viewer }) =>
      write({ endpoint: 'unfollowUser', viewer, input }, async (tx) => ({
        is_follow: await setUserFollow(tx, viewer.userId, input.user_id, false),
      })),

    noteList: ({ input }) => listNotes(db, input.visit_ucode, input.size, input.prev),

    // The body arrives as base64 of the JSON (see the preValidation hook in app.ts); exactly
    // once per client_id, within the write limit, like every write.
    noteUpdate: ({ input, viewer }) =>
      write({ endpoint: 'noteUpdate', viewer, input }, (tx) => saveNote(tx, viewer.userId, input, config.dailyNoteLimit)),

    nickUpdate: async ({ input, viewer }) => {
      await write({ endpoint: 'nickUpdate', viewer, input }, (tx) =>
        setNick(tx, viewer.userId, input.nick, config.dailyNickChangeLimit),
      );
      // This process's posts show the new nickname at once (others within AUTHOR_TTL_MS).
      forgetAuthor(db, viewer.userId);
      return loginUserById(db, viewer.userId);
    },
  });
};
