/**
 * Following a channel (added to or taken from the followed list by channel_id): shown at once in
 * the channel's page, the directory and the sidebar's 关注, and sent through the outbox like every
 * other write (kept while offline, put back if refused).
 */
import { useQueryClient } from '@tanstack/react-query';
import type { Channel } from '#shared/schemas.ts';
import { makeWrite } from '../../entities/outbox/index.ts';
import { toast } from '../../ui/toast/toast-store.ts';

export function useChannelFollow(): (channel: Channel, on: boolean) => void {
  const queryClient = useQueryClient();
  return (channel, on) =>
    void makeWrite(queryClient, 'channelFollow', { channel: { channel_id: channel.channel_id, channel_name: channel.channel_name }, on }).then((outcome) => {
      if (outcome.status === 'sent') toast.success(on ? `已关注「${channel.channel_name}」` : `已取消关注「${channel.channel_name}」`);
    });
}
