/** Following a channel (SPEC.md section 4: the user channel list adds or removes by channel_id). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { Channel } from '#shared/schemas.ts';
import { setChannelFollowed } from '../../entities/channel/cache.ts';
import { postKeys } from '../../entities/post/queries.ts';
import { request } from '../../lib/http.ts';

export function useChannelFollow(uid: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ channel, follow }: { channel: Channel; follow: boolean }) => {
      await request(follow ? endpoints.followChannel : endpoints.unfollowChannel, { channel_id: channel.channel_id });
      return { channel, follow };
    },
    onSuccess: ({ channel, follow }) => {
      if (uid === undefined) return;
      setChannelFollowed(queryClient, uid, channel, follow);
      // What the 关注 feed lists has changed.
      void queryClient.invalidateQueries({ queryKey: postKeys.feed({ tab: 'follow' }) });
    },
  });
}
