/** Channels: detail, lists, posts of a channel, follows. */
import { defineHandlers } from '../http/define-endpoint.ts';
import {
  channelsByCategory,
  getChannel,
  recommendedChannels,
  setChannelFollow,
  userChannels,
} from '../services/channels.ts';
import { channelPostsFilter, listPosts } from '../services/posts.ts';
import { writer } from '../services/once.ts';
import { resolveUserId } from '../services/users.ts';
import type { RouteDeps } from './deps.ts';

export const channelHandlers = ({ db, config, onReplay }: RouteDeps) => {
  const write = writer(db, config, onReplay);
  return defineHandlers({
    channelDetail: ({ input, viewer }) => getChannel(db, input.channel_id, viewer?.userId ?? null),

    recommendChannelList: async ({ input, viewer }) => ({
      list: await recommendedChannels(db, viewer?.userId ?? null, input.size),
    }),

    categoryChannel: async ({ viewer }) => ({
      list: await channelsByCategory(db, viewer?.userId ?? null),
    }),

    channelPosts: ({ input, viewer }) => listPosts(db, channelPostsFilter(input, viewer?.userId ?? null), input, viewer),

    followChannel: ({ input, viewer }) =>
      write({ endpoint: 'followChannel', viewer, input }, async (tx) => ({
        is_follow: await setChannelFollow(tx, viewer.userId, input.channel_id, true),
      })),

    unfollowChannel: ({ input, viewer }) =>
      write({ endpoint: 'unfollowChannel', viewer, input }, async (tx) => ({
        is_follow: await setChannelFollow(tx, viewer.userId, input.channel_id, false),
      })),

    userChannelList: async ({ input }) => ({
      list: await userChannels(db, await resolveUserId(db, input)),
    }),
  });
};
