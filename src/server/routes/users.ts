import type { FastifyInstance } from 'fastify';
import { api } from '#shared/api.ts';
import { defineEndpoint } from '../http/define-endpoint.ts';
import { listNotes } from '../services/notes.ts';
import { listPosts } from '../services/posts.ts';
import { getUserInfo, resolveUserId, setUserFollow } from '../services/users.ts';
import type { RouteDeps } from './deps.ts';

export async function userRoutes(app: FastifyInstance, { db }: RouteDeps) {
  defineEndpoint(app, api.userInfo, ({ input, viewer }) => getUserInfo(db, input, viewer?.userId ?? null));

  defineEndpoint(app, api.userPosts, async ({ input, viewer }) => {
    const userId = await resolveUserId(db, input);
    return listPosts(db, { kind: 'user', userId }, input, viewer?.userId ?? null);
  });

  defineEndpoint(app, api.followUser, async ({ input, viewer }) => ({
    is_follow: await setUserFollow(db, viewer.userId, input.user_id, true),
  }));

  defineEndpoint(app, api.unfollowUser, async ({ input, viewer }) => ({
    is_follow: await setUserFollow(db, viewer.userId, input.user_id, false),
  }));

  defineEndpoint(app, api.noteList, ({ input }) => listNotes(db, input.visit_ucode, input.size, input.prev));
}
