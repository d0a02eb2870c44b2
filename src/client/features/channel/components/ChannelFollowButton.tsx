import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Channel } from '#shared/schemas.ts';
import { followedChannelsQueryOptions } from '../../../entities/channel/queries.ts';
import { requireLogin } from '../../../entities/session/login.ts';
import { sessionQueryOptions } from '../../../entities/session/queries.ts';
import { useChannelFollow } from '../mutations.ts';

/**
 * 关注 / 已关注 for one channel: adds or removes it from the user's followed channels by
 * channel_id, shown at once. Logged out, it opens the login popup, then the follow.
 */
export function ChannelFollowButton({ channel }: { channel: Channel }) {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQueryOptions());
  const uid = session.data?.uid;
  const followed = useQuery({ ...followedChannelsQueryOptions(uid ?? 0), enabled: uid !== undefined });
  const follow = useChannelFollow();
  const isFollow = followed.data?.some((c) => c.channel_id === channel.channel_id) ?? false;
  // Until we know who is looking (and what they follow), a click would do the wrong thing.
  const unknown = session.isPending || (uid !== undefined && followed.isPending);

  const toggle = () => {
    const send = () => follow(channel, !isFollow);
    if (requireLogin(queryClient, send)) send();
  };

  return (
    <button
      type="button"
      className={`button button--small ${isFollow ? 'button--ghost' : 'button--primary'}`}
      aria-pressed={isFollow}
      disabled={unknown}
      aria-busy={unknown}
      onClick={toggle}
    >
      {isFollow ? '已关注' : '关注'}
    </button>
  );
}
