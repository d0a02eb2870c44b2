import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Post } from '#shared/schemas.ts';
import { moderationLogQueryOptions, moderationQueueQueryOptions } from '../../../entities/moderation/queries.ts';
import { fullTime } from '../../../format/time.ts';
import { pagedItems } from '../../../lib/paging.ts';
import { LoadingRegion, SkeletonLines } from '../../../ui/Skeleton.tsx';
import { EmptyState, ErrorState, ListFooter } from '../../../ui/states.tsx';
import { actionText } from '../labels.ts';
import { QueueItem } from './QueueItem.tsx';
import '../moderation.css';

function Loading() {
  return (
    <LoadingRegion>
      <div className="card">
        <SkeletonLines lines={4} />
      </div>
    </LoadingRegion>
  );
}

/** 待处理: the open complaints, one item per reported target. Posts are drawn by `renderPost` (the page gives the feed's card). */
export function ModerationQueue({ renderPost }: { renderPost: (post: Post) => ReactNode }) {
  const query = useInfiniteQuery(moderationQueueQueryOptions());
  const items = pagedItems(query.data?.pages);
  if (query.isPending) return <Loading />;
  if (query.isError && items.length === 0) {
    return <ErrorState title="加载失败" error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  if (items.length === 0) return <EmptyState title="没有待处理的举报" description="新的举报会出现在这里。" />;
  return (
    <section aria-label="待处理的举报">
      <p className="visually-hidden" role="status">
        {`${items.length}${query.hasNextPage ? '+' : ''} 条待处理`}
      </p>
      <ul className="moderation-list">
        {items.map((item) => (
          <li key={`${item.target_type}-${item.target_id}`}>
            <QueueItem item={item} renderPost={renderPost} />
          </li>
        ))}
      </ul>
      <ListFooter query={query} />
    </section>
  );
}

/** 处理记录: the audit log, newest first. */
export function ModerationLog() {
  const query = useInfiniteQuery(moderationLogQueryOptions());
  const entries = pagedItems(query.data?.pages);
  if (query.isPending) return <Loading />;
  if (query.isError && entries.length === 0) {
    return <ErrorState title="加载失败" error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  if (entries.length === 0) return <EmptyState title="还没有处理记录" />;
  return (
    <section className="card" aria-label="处理记录">
      <ul className="moderation-list">
        {entries.map((entry) => (
          <li key={entry.id} className="moderation-log__row">
            {actionText(entry)}
            {entry.reason ? `：${entry.reason}` : ''}
            <time dateTime={new Date(entry.create_time).toISOString()}>{fullTime(entry.create_time)}</time>
          </li>
        ))}
      </ul>
      <ListFooter query={query} />
    </section>
  );
}
