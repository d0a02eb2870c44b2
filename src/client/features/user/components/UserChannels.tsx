import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { followedChannelsQueryOptions, userChannelsQueryOptions } from '../../../entities/channel/queries.ts';
import { LoadingRegion, Skeleton } from '../../../ui/Skeleton.tsx';
import { EmptyState, ErrorState } from '../../../ui/states.tsx';

/**
 * The channels a user follows (channel/user_channel_list, source 1): one's own are the account's
 * (kept only while logged in), someone else's a public read, kept for offline reading.
 */
export function UserChannels({ uid, isSelf }: { uid: number; isSelf: boolean }) {
  const own = useQuery({ ...followedChannelsQueryOptions(uid), enabled: isSelf });
  const theirs = useQuery({ ...userChannelsQueryOptions(uid), enabled: !isSelf });
  const query = isSelf ? own : theirs;
  if (query.isPending) {
    return (
      <LoadingRegion label="频道加载中">
        <Skeleton height={44} radius={8} />
      </LoadingRegion>
    );
  }
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <EmptyState title={isSelf ? '你还没有关注频道' : 'TA 还没有关注频道'} />;
  return (
    <ul className="user-channels">
      {query.data.map((channel) => (
        <li key={channel.channel_id}>
          <Link to="/channel/list/$id" params={{ id: String(channel.channel_id) }} className="chip chip--channel user-channels__chip">
            {channel.channel_name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
