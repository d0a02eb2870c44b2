import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { lazy, Suspense, use, useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import type { Post } from '#shared/schemas.ts';
import { EmptyState, ErrorState, ListFooter } from '../../../ui/states.tsx';
import { useNextPageOnScroll } from '../../../ui/next-page-on-scroll.ts';
import { useDeferredUnlessCarried } from '../../../lib/carried-by-page.ts';
import type { PostListQueryOptions } from '../../../entities/post/queries.ts';
import { FeedSkeleton } from './FeedSkeleton.tsx';
import type WindowedPostsModule from './WindowedPosts.tsx';
import { PostCard } from './PostCard.tsx';
import { postPartsPending } from '../post-parts.ts';
import './feed.css';

/** From this many posts the list is windowed (WindowedPosts.tsx); a first visit never is. */
export const WINDOW_FROM = 40;

/** Loaded when a list first grows long; if it cannot load, the list stays plain. */
const WindowedPosts = lazy(() =>
  import('./WindowedPosts.tsx').catch(() => ({
    default: (({ children }) => children) as typeof WindowedPostsModule,
  })),
);

/** Posts of every loaded page, each once (a post may move between pages while paging). */
export function flattenPosts(pages: readonly { list: Post[] }[] | undefined): Post[] {
  if (!pages) return [];
  const seen = new Set<number>();
  const posts: Post[] = [];
  for (const page of pages) {
    for (const post of page.list) {
      if (seen.has(post.id)) continue;
      seen.add(post.id);
      posts.push(post);
    }
  }
  return posts;
}

/**
 * An infinite post list with keyset paging: the next page loads when a sentinel comes within 50 px
 * of the viewport, with a 加载更多 button as the visible fallback; skeletons first, then the posts,
 * an empty state, an error state with 重试, and 没有更多了 at the end.
 */
export function PostList<TKey extends QueryKey>({
  options,
  emptyTitle = '这里还没有动态',
  emptyDescription,
  emptyAction,
  label = '动态列表',
  firstPostsInBackground = false,
}: {
  options: PostListQueryOptions<TKey>;
  emptyTitle?: string;
  emptyDescription?: ReactNode;
  emptyAction?: ReactNode;
  label?: string;
  /**
   * Render the posts in the background even when they are at hand as the list mounts (below a
   * page's first screen), unless the page itself carried and showed them (lib/carried-by-page.ts).
   */
  firstPostsInBackground?: boolean;
}) {
  const query = useInfiniteQuery(options);
  const { data, hasNextPage, isFetchingNextPage } = query;
  // A list's first posts render in the background (a transition, which React does in slices
  // between which the page stays responsive) instead of in one long task when their page
  // arrives (a channel's): the skeleton stays until then. A list mounted with its posts at hand
  // shows them at once (/home's first screen, a page come back), unless told to wait; once
  // shown, what changes (another page, a like) renders at once.
  const deferred = useDeferredUnlessCarried(data, options.queryKey, firstPostsInBackground);
  const shown = deferred?.pages.length ? data : deferred;
  const posts = useMemo(() => flattenPosts(shown?.pages), [shown]);
  // The first posts show once the code of their polls and code cards is here (the skeleton stays
  // meanwhile; a first screen's arrives before the app's first render: cardsReady): a card that
  // grew when it came would push the ones under it. Posts added later load it alongside.
  const [postsShown, setPostsShown] = useState(false);
  if (!postsShown) {
    const partsPending = postPartsPending(posts);
    if (partsPending) use(partsPending);
    else if (posts.length > 0) setPostsShown(true);
  }
  // The switch to the windowed list waits in the background until its chunk has loaded, the plain
  // list shown meanwhile: shown at once, its Suspense fallback (the same list) would stand beside
  // the plain list kept hidden, and the browser's scroll anchoring moved the reader down by the
  // new page's height (a reader at the 30th post was carried past the 40th).
  const windowed = useDeferredValue(posts.length >= WINDOW_FROM);
  const sentinelRef = useNextPageOnScroll(query);

  if (query.isPending || (shown !== data && posts.length === 0)) return <FeedSkeleton />;

  if (query.isError && posts.length === 0) {
    return (
      <ErrorState
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }

  if (posts.length === 0) {
    return <EmptyState title={emptyTitle} description={emptyDescription} action={emptyAction} />;
  }

  const plain = (
    <div className="post-list" aria-busy={isFetchingNextPage || undefined}>
      {posts.map((post) => (
        <PostCard key={post.id} post={post} />
      ))}
    </div>
  );
  return (
    <section className="post-list-wrap" aria-label={label}>
      <Suspense fallback={plain}>
        {!windowed ? (
          plain
        ) : (
          <WindowedPosts posts={posts} more={hasNextPage}>
            {plain}
          </WindowedPosts>
        )}
      </Suspense>
      <div ref={sentinelRef} className="list-sentinel" aria-hidden="true" />
      <ListFooter query={query} />
    </section>
  );
}
