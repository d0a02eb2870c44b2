import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SearchType } from '#shared/constants.ts';
import { formatCount } from '#shared/count.ts';
import type { Post, SearchExcerpt } from '#shared/schemas.ts';
import { searchQueryOptions, type OtherHit, type SearchPage } from '../../../entities/search/queries.ts';
import { useOnlineStore } from '../../../platform/online-store.ts';
import { Avatar } from '../../../ui/Avatar.tsx';
import { IconHash } from '../../../ui/icons.tsx';
import { LoadingRegion, Skeleton } from '../../../ui/Skeleton.tsx';
import { Thumbnail } from '../../../ui/Thumbnail.tsx';
import { EmptyState, ErrorState, ListFooter } from '../../../ui/states.tsx';
import { useNextPageOnScroll } from '../../../ui/next-page-on-scroll.ts';
import { Excerpt } from './Excerpt.tsx';
import '../search.css';

export const SEARCH_TYPE_LABELS: Record<SearchType, string> = { post: '动态', topic: '话题', channel: '频道', user: '用户' };

/** What the loaded pages found: each post once (a post may move between pages), its excerpt, and the other hits. */
export function searchItems(pages: readonly SearchPage[] | undefined): { posts: Post[]; excerpts: Record<number, SearchExcerpt>; others: OtherHit[] } {
  const posts: Post[] = [];
  const seen = new Set<number>();
  let excerpts: Record<number, SearchExcerpt> = {};
  const others: OtherHit[] = [];
  for (const page of pages ?? []) {
    for (const post of page.list) {
      if (seen.has(post.id)) continue;
      seen.add(post.id);
      posts.push(post);
    }
    excerpts = { ...excerpts, ...page.excerpts };
    others.push(...page.others);
  }
  return { posts, excerpts, others };
}

/** What the live region says once results are here. */
export function resultsAnnouncement(count: number, more: boolean, type: SearchType): string {
  return count === 0 ? '没有找到结果' : `找到${more ? '至少 ' : ' '}${count} 个${SEARCH_TYPE_LABELS[type]}`;
}

/**
 * The results of one search of one kind, page by page as the reader scrolls (a sentinel near the
 * bottom; 加载更多 for the keyboard), with skeletons, an empty state, an error state with 重试
 * (offline: 当前处于离线状态, loaded again when the network returns), and the count announced.
 * Posts are drawn by `renderPost` (the page gives the feed's card: this feature does not own it).
 * As in the feeds, the first posts show once `postsPending` has settled (the code of their polls and
 * code cards): a card that grew when that code came would push the ones under it.
 */
export function SearchResults({
  q,
  type,
  renderPost,
  postSkeleton,
  postsPending,
}: {
  q: string;
  type: SearchType;
  renderPost: (post: Post, excerpt: ReactNode) => ReactNode;
  postSkeleton: ReactNode;
  postsPending?: (posts: readonly Post[]) => Promise<void> | undefined;
}) {
  const query = useInfiniteQuery(searchQueryOptions(q, type));
  const { data, hasNextPage, isFetchingNextPage } = query;
  const offline = useOnlineStore((s) => !s.online);
  const { posts, excerpts, others } = useMemo(() => searchItems(data?.pages), [data]);
  const [postsShown, setPostsShown] = useState(false);
  const partsPending = type === 'post' && !postsShown && posts.length > 0 ? postsPending?.(posts) : undefined;
  if (type === 'post' && !postsShown && posts.length > 0 && !partsPending) setPostsShown(true);
  useEffect(() => {
    if (!partsPending) return;
    let live = true;
    void partsPending.then(() => live && setPostsShown(true));
    return () => {
      live = false;
    };
  }, [partsPending]);
  const count = type === 'post' ? posts.length : others.length;
  const sentinelRef = useNextPageOnScroll(query);

  let body: ReactNode;
  let announcement = '';
  if (query.isPending || partsPending) {
    body = type === 'post' ? postSkeleton : <RowsSkeleton />;
  } else if (query.isError && count === 0) {
    body = (
      <ErrorState
        title={offline ? '当前处于离线状态' : '加载失败'}
        error={query.error}
        {...(offline ? { message: '这次搜索还没有离线缓存，网络恢复后会自动加载' } : {})}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (count === 0) {
    announcement = resultsAnnouncement(0, false, type);
    body = <EmptyState title={`没有找到与「${q}」相关的内容`} description="换个词试试，或者看看其他分类。" />;
  } else {
    announcement = resultsAnnouncement(count, hasNextPage, type);
    body = (
      <section className="search-results" aria-label={`${SEARCH_TYPE_LABELS[type]}搜索结果`} aria-busy={isFetchingNextPage || undefined}>
        {type === 'post' ? (
          <div className="post-list">{posts.map((post) => (
              <Fragment key={post.id}>{renderPost(post, <Excerpt excerpt={excerpts[post.id]} />)}</Fragment>
            ))}</div>
        ) : (
          <ul className="search-rows">
            {others.map((hit) => (
              <li key={`${hit.type}-${hitId(hit)}`}>
                <HitRow hit={hit} />
              </li>
            ))}
          </ul>
        )}
        <div ref={sentinelRef} className="list-sentinel" aria-hidden="true" />
        <ListFooter query={query} />
      </section>
    );
  }
  return (
    <>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {body}
    </>
  );
}

function hitId(hit: OtherHit): number {
  return hit.type === 'topic' ? hit.topic.topic_id : hit.type === 'channel' ? hit.channel.channel_id : hit.user.uid;
}

/** A topic, a channel or a user found: its name, what matched, and a link to its page. */
function HitRow({ hit }: { hit: OtherHit }) {
  if (hit.type === 'topic') {
    const { topic } = hit;
    return (
      <Link to="/topic/comment/$id" params={{ id: String(topic.topic_id) }} className="search-row">
        <Thumbnail className="search-row__thumb" src={topic.cover} size={44} placeholder={<IconHash size={22} />} />
        <span className="search-row__text">
          <span className="search-row__name">#{topic.topic_name}#</span>
          <Excerpt excerpt={hit.excerpt} className="search-row__excerpt" />
        </span>
        <span className="search-row__count">{formatCount(topic.post_count)} 条动态</span>
      </Link>
    );
  }
  if (hit.type === 'channel') {
    const { channel } = hit;
    return (
      <Link to="/channel/list/$id" params={{ id: String(channel.channel_id) }} className="search-row">
        <Thumbnail className="search-row__thumb" src={channel.icon} size={44} placeholder={<IconHash size={22} />} />
        <span className="search-row__text">
          <span className="search-row__name">{channel.channel_name}</span>
          <Excerpt excerpt={hit.excerpt} className="search-row__excerpt" />
        </span>
        <span className="search-row__count">{formatCount(channel.follower_count)} 人关注</span>
      </Link>
    );
  }
  const { user } = hit;
  return (
    <Link to="/usercenter/$id" params={{ id: String(user.uid) }} className="search-row">
      <Avatar src={user.avatar} nick={user.nick} size={44} />
      <span className="search-row__text">
        <span className="search-row__name">{user.nick}</span>
        <Excerpt excerpt={hit.excerpt} className="search-row__excerpt" />
      </span>
    </Link>
  );
}

function RowsSkeleton() {
  return (
    <LoadingRegion label="搜索中">
      <ul className="search-rows">
        {[0, 1, 2, 3].map((i) => (
          <li key={i} className="search-row" aria-hidden="true">
            <Skeleton width={44} height={44} radius={8} />
            <span className="search-row__text">
              <Skeleton width={120} />
              <Skeleton width="70%" height={12} />
            </span>
          </li>
        ))}
      </ul>
    </LoadingRegion>
  );
}
