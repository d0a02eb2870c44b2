import type { FastifyInstance } from 'fastify';
import { api } from '#shared/api.ts';
import { defineEndpoint } from '../http/define-endpoint.ts';
import {
  channelsByCategory,
  getChannel,
  recommendedChannels,
  setChannelFollow,
  userChannels,
} from '../services/channels.ts';
import { channelPostsFilter, listPosts } from '../services/posts.ts';
import { resolveUserId } from '../services/users.ts';
import type { RouteDeps } from './deps.ts';

export async function channelRoutes(app: FastifyInstance, { db }: RouteDeps) {
  defineEndpoint(app, api.channelDetail, ({ input, viewer }) => getChannel(db, input.channel_id, viewer?.userId ?? null));

  defineEndpoint(app, api.recommendChannelList, async ({ input, viewer }) => ({
    list: await recommendedChannels(db, viewer?.userId ?? null, input.size),
  }));

  defineEndpoint(app, api.categoryChannel, async ({ viewer }) => ({
    list: await channelsByCategory(db, viewer?.userId ?? null),
  }));

  defineEndpoint(app, api.channelPosts, ({ input, viewer }) => {
    const viewerId = viewer?.userId ?? null;
    return listPosts(db, channelPostsFilter(input, viewerId), input, viewerId);
  });

  defineEndpoint(app, api.followChannel, async ({ input, viewer }) => ({
    is_follow: await setChannelFollow(db, viewer.userId, input.channel_id, true),
  }));

  defineEndpoint(app, api.unfollowChannel, async ({ input, viewer }) => ({
    is_follow: await setChannelFollow(db, viewer.userId, input.channel_id, false),
  }));

  defineEndpoint(app, api.userChannelList, async ({ input }) => ({
    list: await userChannels(db, await resolveUserId(db, input)),
  }));
}
