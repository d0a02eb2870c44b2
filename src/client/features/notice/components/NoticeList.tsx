import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, type MouseEvent } from 'react';
import type { Notice, NoticeTab } from '#shared/schemas.ts';
import { noticeHeadline } from '#shared/notice-headline.ts';
import { makeWrite } from '../../../entities/outbox/index.ts';
import { noticesQueryOptions } from '../../../entities/notice/queries.ts';
import { fullTime, readableTime } from '../../../format/time.ts';
import { pagedItems } from '../../../lib/paging.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { LoadingRegion, Skeleton, SkeletonLines } from '../../../ui/Skeleton.tsx';
import { EmptyState, ErrorState, ListFooter } from '../../../ui/states.tsx';
import './notices.css';

function NoticeItem({ notice }: { notice: Notice }) {
  const router = useRouter();
  const { who, did } = noticeHeadline(notice);
  // Through the router, so inside the native app the post opens by its app link (app/host).
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void router.navigate({ href: notice.route });
  };
  return (
    <li className={`notice${notice.unread ? ' notice--unread' : ''}`}>
      <a className="notice__link" href={notice.route} onClick={open}>
        <span className="notice__avatars" aria-hidden="true">
          {notice.actors.map((actor) => (
            <Avatar key={actor.uid} src={actor.avatar} nick={actor.nick} size={36} />
          ))}
        </span>
        <span className="notice__main">
          <span className="notice__headline">
            <strong className="notice__who">{who}</strong> {did}
            {notice.unread ? <span className="visually-hidden">（未读）</span> : null}
          </span>
          {notice.content_excerpt ? <span className="notice__content">{notice.content_excerpt}</span> : null}
          {notice.target_excerpt ? <span className="notice__target">{notice.target_excerpt}</span> : null}
          <time className="notice__time" dateTime={new Date(notice.update_time).toISOString()} title={fullTime(notice.update_time)}>
            {readableTime(notice.update_time)}
          </time>
        </span>
        {notice.unread ? <span className="notice__dot" aria-hidden="true" /> : null}
      </a>
    </li>
  );
}

const EMPTY_TITLES: Record<NoticeTab, string> = {
  all: '暂时没有消息',
  comment: '还没有人评论或回复你',
  like: '还没有人赞你',
  follow: '还没有新的粉丝',
};

/**
 * The notices of one tab, newest activity first. Shown on 全部, they are marked read up to
 * the newest one shown (through the outbox: offline too, sent once).
 */
export function NoticeList({ uid, tab }: { uid: number; tab: NoticeTab }) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(noticesQueryOptions(uid, tab));
  const notices = pagedItems(query.data?.pages);
  const newestId = notices[0]?.id;
  const anyUnread = notices.some((notice) => notice.unread);
  const markedUpTo = useRef<number | null>(null);
  useEffect(() => {
    if (tab !== 'all' || newestId === undefined || !anyUnread || markedUpTo.current === newestId) return;
    markedUpTo.current = newestId;
    void makeWrite(queryClient, 'noticeRead', { up_to_id: newestId });
  }, [queryClient, tab, newestId, anyUnread]);

  if (query.isPending) {
    return (
      <LoadingRegion label="消息加载中">
        {[0, 1, 2].map((i) => (
          <div key={i} className="notice notice--skeleton" aria-hidden="true">
            <Skeleton width={36} height={36} radius="50%" />
            <div className="notice__main">
              <Skeleton width={160} />
              <SkeletonLines lines={1} />
            </div>
          </div>
        ))}
      </LoadingRegion>
    );
  }
  if (query.isError && notices.length === 0) {
    return <ErrorState title="消息加载失败" error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (notices.length === 0) return <EmptyState title={EMPTY_TITLES[tab]} description="有人评论、回复、点赞或关注你时，会在这里告诉你。" />;
  return (
    <>
      <ul className="notice-list">
        {notices.map((notice) => (
          <NoticeItem key={notice.id} notice={notice} />
        ))}
      </ul>
      <ListFooter query={query} moreLabel="加载更多消息" />
    </>
  );
}
