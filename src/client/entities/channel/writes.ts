/** The write that changes a channel as the viewer sees it: following it, or no longer (by channel_id). */
import { endpoints } from '#shared/endpoints.ts';
import type { Channel } from '#shared/schemas.ts';
import { oneCall, switchWrite } from '../outbox/definition.ts';
import { setChannelFollowed } from './cache.ts';
import { channelKeys } from './queries.ts';

export interface ChannelFollowInput {
  channel: Channel;
  on: boolean;
}

export const channelFollow = switchWrite<ChannelFollowInput, { is_follow: boolean }>({
  target: (input) => `channel:${input.channel.channel_id}`,
  isOn: (queryClient, input, viewer) =>
    queryClient.getQueryData<Channel[]>(channelKeys.followed(viewer))?.some((channel) => channel.channel_id === input.channel.channel_id),
  show: (queryClient, input, on, viewer) => setChannelFollowed(queryClient, viewer, input.channel, on),
  call: (input, clientId) =>
    oneCall(input.on ? endpoints.followChannel : endpoints.unfollowChannel, { channel_id: input.channel.channel_id, client_id: clientId }),
  changes: (_queryClient, input, on, viewer, answer) => [
    { type: 'updateChannelList', channel: input.channel, is_follow: answer?.is_follow ?? on, viewer },
  ],
  about: (_queryClient, input) => input.channel.channel_name,
});
