/**
 * The three feed pages with the sidebar: /home (kept alive), /follow, /good. They are the
 * first screen of most visits, so their code is in the entry chunk, not loaded on demand.
 */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createRoute, Link } from '@tanstack/react-router';
import { channelDetailQueryOptions } from '../entities/channel/queries.ts';
import { feedQueryOptions } from '../entities/post/queries.ts';
import { sessionQueryOptions } from '../entities/session/queries.ts';
import { FeedSkeleton } from '../features/feed/components/FeedSkeleton.tsx';
import { PostList } from '../features/feed/components/PostList.tsx';
import { useOutbox } from '../lib/outbox/store.ts';
import { LazyLayer, lazyComponent } from '../ui/LazyLayer.tsx';
import { optionalId } from './params.ts';
import { rootRoute } from './root.tsx';

// Only logged-out visitors of /follow see it.
const FollowLoginPrompt = lazyComponent(() => import('../features/auth/components/FollowPrompt.tsx'));
// Only while posts wait in the outbox.
const PendingPosts = lazyComponent(() => import('../features/feed/components/PendingPosts.tsx'));

function FeedTitle({ title, children }: { title: string; children?: React.ReactNode }) {
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
  component: FollowPage,
});

function FollowedChannelFeed({ channelId }: { channelId: number }) {
  const channel = useQuery(channelDetailQueryOptions(channelId));
  return (
    <>
      <FeedTitle title={channel.data?.channel_name ?? '关注的频道'}>
        <Link to="/follow" className="text-link feed-header__link">
          全部关注
        </Link>
      </FeedTitle>
      <PostList
        options={feedQueryOptions({ channelId })}
        label={channel.data ? `${channel.data.channel_name}的动态` : '频道动态'}
        emptyTitle="这个频道还没有动态"
      />
    </>
  );
}

function FollowPage() {
  const { channelId } = followRoute.useSearch();
  const { data: user } = useSuspenseQuery(sessionQueryOptions());
  if (channelId !== undefined) return <FollowedChannelFeed channelId={channelId} />;
  return (
    <>
      <FeedTitle title="关注">
        <Link to="/invite/channelList" className="text-link feed-header__link">
          全部频道
        </Link>
      </FeedTitle>
      {user ? (
        <PostList
          options={feedQueryOptions({ tab: 'follow' })}
          label="关注的动态"
          emptyTitle="关注的频道还没有新动态"
          emptyDescription="在全部频道里找到感兴趣的，关注后它们的讨论会出现在这里。"
          emptyAction={
            <Link to="/invite/channelList" className="button button--primary">
              发现频道
            </Link>
          }
        />
      ) : (
        <LazyLayer>
          <FollowLoginPrompt />
        </LazyLayer>
      )}
    </>
  );
}

export const goodRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/good',
  staticData: { sidebar: true, feedTab: 'good' },
  loader: async ({ context }) => {
    await context.queryClient.ensureInfiniteQueryData(feedQueryOptions({ tab: 'good' }));
  },
  pendingComponent: FeedSkeleton,
  component: GoodPage,
});

function GoodPage() {
  return (
    <>
      <FeedTitle title="精华" />
      <PostList options={feedQueryOptions({ tab: 'good' })} label="精华动态" emptyTitle="还没有精华动态" />
    </>
  );
}
