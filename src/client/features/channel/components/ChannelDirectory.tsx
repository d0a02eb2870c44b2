import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatCount } from '#shared/count.ts';
import { LoadingRegion, Skeleton } from '../../../ui/Skeleton.tsx';
import { EmptyState, ErrorState } from '../../../ui/states.tsx';
import { channelCategoriesQueryOptions } from '../../../entities/channel/queries.ts';
import { ChannelIcon } from './ChannelHeader.tsx';
import './channel.css';

/** Every channel, grouped by category; each opens its channel page. */
export function ChannelDirectory() {
  const query = useQuery(channelCategoriesQueryOptions());
  if (query.isPending) {
    return (
      <LoadingRegion label="频道加载中">
        <div className="channel-grid" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={72} radius={12} />
          ))}
        </div>
      </LoadingRegion>
    );
  }
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const categories = query.data.filter((category) => category.list.length > 0);
  if (categories.length === 0) return <EmptyState title="还没有频道" />;
  return (
    <div className="channel-directory">
      {categories.map((category) => (
        <section key={category.category_id} aria-labelledby={`category-${category.category_id}`}>
          <h2 id={`category-${category.category_id}`} className="section-title">
            {category.category_name}
          </h2>
          <ul className="channel-grid">
            {category.list.map((channel) => (
              <li key={channel.channel_id}>
                <Link to="/channel/list/$id" params={{ id: String(channel.channel_id) }} className="channel-tile">
                  <ChannelIcon channel={channel} size={40} />
                  <span className="channel-tile__text">
                    <span className="channel-tile__name">{channel.channel_name}</span>
                    <span className="channel-tile__meta">{formatCount(channel.follower_count)} 人关注</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
