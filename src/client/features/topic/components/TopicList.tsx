import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatCount } from '#shared/count.ts';
import type { TopicDetail } from '#shared/schemas.ts';
import { IconHash } from '../../../ui/icons.tsx';
import { LoadingRegion, Skeleton } from '../../../ui/Skeleton.tsx';
import { Thumbnail } from '../../../ui/Thumbnail.tsx';
import { EmptyState, ErrorState, ListFooter } from '../../../ui/states.tsx';
import { pagedItems } from '../../../lib/paging.ts';
import { topicListQueryOptions } from '../../../entities/topic/queries.ts';
import '../../../ui/entity-header.css';
import './topic.css';

export function TopicCover({ topic, size = 48 }: { topic: TopicDetail; size?: number }) {
  return <Thumbnail className="topic-cover" src={topic.cover} size={size} placeholder={<IconHash size={Math.round(size * 0.5)} />} />;
}

/** Every topic, most posts first; each opens /topic/comment/$id. */
export function TopicList() {
  const query = useInfiniteQuery(topicListQueryOptions());
  const topics = pagedItems(query.data?.pages);
  if (query.isPending) {
    return (
      <LoadingRegion label="话题加载中">
        <ul className="topic-list">
          {[0, 1, 2, 3].map((i) => (
            <li key={i} className="topic-row" aria-hidden="true">
              <Skeleton width={48} height={48} radius={8} />
              <span className="topic-row__text">
                <Skeleton width={120} />
                <Skeleton width="70%" height={12} />
              </span>
            </li>
          ))}
        </ul>
      </LoadingRegion>
    );
  }
  if (query.isError && topics.length === 0) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (topics.length === 0) return <EmptyState title="还没有话题" />;
  return (
    <>
      <ul className="topic-list">
        {topics.map((topic) => (
          <li key={topic.topic_id}>
            <Link to="/topic/comment/$id" params={{ id: String(topic.topic_id) }} className="topic-row">
              <TopicCover topic={topic} />
              <span className="topic-row__text">
                <span className="topic-row__name">#{topic.topic_name}#</span>
                {topic.intro ? <span className="topic-row__intro">{topic.intro}</span> : null}
              </span>
              <span className="topic-row__count">{formatCount(topic.post_count)} 条动态</span>
            </Link>
          </li>
        ))}
      </ul>
      <ListFooter query={query} />
    </>
  );
}
