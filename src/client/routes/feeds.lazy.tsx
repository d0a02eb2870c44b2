/** The pages of /follow (the followed channels' posts, or one channel's) and /good (精华); their routes are in feeds.tsx. */
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createLazyRoute, Link } from '@tanstack/react-router';
import { channelDetailQueryOptions } from '../entities/channel/queries.ts';
import { feedQueryOptions } from '../entities/post/queries.ts';
import { sessionQueryOptions } from '../entities/session/queries.ts';
import { PostList } from '../features/feed/components/PostList.tsx';
import { LazyLayer, lazyComponent } from '../ui/LazyLayer.tsx';
import { FeedTitle } from './feeds.tsx';

// Only logged-out visitors of /follow see it.
const FollowLoginPrompt = lazyComponent(() => import('../features/auth/components/FollowPrompt.tsx'));

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
  const { channelId } = followLazyRoute.useSearch();
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


function GoodPage() {
  return (
    <>
      <FeedTitle title="精华" />
      <PostList options={feedQueryOptions({ tab: 'good' })} label="精华动态" emptyTitle="还没有精华动态" />
    </>
  );
}

export const followLazyRoute = createLazyRoute('/follow')({ component: FollowPage });
export const goodLazyRoute = createLazyRoute('/good')({ component: GoodPage });
