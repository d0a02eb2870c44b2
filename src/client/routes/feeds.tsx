/**
 * The three feed pages with the sidebar: /home (kept alive), /follow, /good. /home is the first
 * screen of most visits, so its page is in the entry chunk; the pages of /follow and /good come
 * with the first visit to them (feeds.lazy.tsx), or as soon as a pointer or a finger is on their tab.
 */
import { createRoute } from '@tanstack/react-router';
import { channelDetailQueryOptions } from '../entities/channel/queries.ts';
import { feedQueryOptions } from '../entities/post/queries.ts';
import { sessionQueryOptions } from '../entities/session/queries.ts';
import { FeedSkeleton } from '../features/feed/components/FeedSkeleton.tsx';
import { PostList } from '../features/feed/components/PostList.tsx';
import { useOutbox } from '../lib/write-queue/store.ts';
import { LazyLayer, lazyComponent } from '../ui/LazyLayer.tsx';
import { optionalId } from './params.ts';
import { rootRoute } from './root.tsx';

// Only while posts wait in the outbox.
const PendingPosts = lazyComponent(() => import('../features/feed/components/PendingPosts.tsx'));

export function FeedTitle({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <header className="feed-header">
      <h1 className="feed-header__title">{title}</h1>
      {children}
    </header>
  );
}

export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/home',
  staticData: { sidebar: true, feedTab: 'all' },
  loader: async ({ context }) => {
    await context.queryClient.ensureInfiniteQueryData(feedQueryOptions({ tab: 'all' }));
  },
  pendingComponent: FeedSkeleton,
  component: HomePage,
});

function HomePage() {
  const pending = useOutbox((s) => s.items.some((item) => item.kind === 'post'));
  return (
    <>
      <FeedTitle title="全部动态" />
      {pending ? (
        <LazyLayer>
          <PendingPosts />
        </LazyLayer>
      ) : null}
      <PostList options={feedQueryOptions({ tab: 'all' })} label="全部动态" />
    </>
  );
}

export const followRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/follow',
  staticData: { sidebar: true, feedTab: 'follow' },
  // Anything but a positive integer reads as "no channel" (explicitly undefined, so a raw
  // ?channelId=abc cannot leak through from the unvalidated location search).
  validateSearch: (search: Record<string, unknown>): { channelId?: number | undefined } => ({
    channelId: optionalId(search.channelId),
  }),
  loaderDeps: ({ search }) => ({ channelId: search.channelId }),
  loader: async ({ context, deps }) => {
    const { queryClient } = context;
    if (deps.channelId !== undefined) {
      void queryClient.prefetchQuery(channelDetailQueryOptions(deps.channelId));
      await queryClient.ensureInfiniteQueryData(feedQueryOptions({ channelId: deps.channelId }));
      return;
    }
    const user = await queryClient.ensureQueryData(sessionQueryOptions());
    if (user) await queryClient.ensureInfiniteQueryData(feedQueryOptions({ tab: 'follow' }));
  },
  pendingComponent: FeedSkeleton,
}).lazy(() => import('./feeds.lazy.tsx').then((m) => m.followLazyRoute));

export const goodRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/good',
  staticData: { sidebar: true, feedTab: 'good' },
  loader: async ({ context }) => {
    await context.queryClient.ensureInfiniteQueryData(feedQueryOptions({ tab: 'good' }));
  },
  pendingComponent: FeedSkeleton,
}).lazy(() => import('./feeds.lazy.tsx').then((m) => m.goodLazyRoute));
