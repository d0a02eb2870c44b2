/** /channel/list/$id: one channel and its posts; /invite/channelList: every channel. */
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { createRoute } from '@tanstack/react-router';
import { ChannelDirectory } from '../features/channel/components/ChannelDirectory.tsx';
import { ChannelHeader } from '../features/channel/components/ChannelHeader.tsx';
import { channelCategoriesQueryOptions, channelDetailQueryOptions, channelKeys } from '../features/channel/queries.ts';
import { ChannelFollowButton } from '../features/session/components/ChannelFollowButton.tsx';
import { PostList } from '../features/feed/components/PostList.tsx';
import { feedKeys, feedQueryOptions } from '../features/feed/queries.ts';
import { Page } from '../ui/Page.tsx';
import { parseId } from './params.ts';
import { PagePending, RouteError } from './route-states.tsx';
import { PROVIDER_NAME } from './meta.ts';
import { rootRoute } from './root.tsx';

export const channelListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/channel/list/$id',
  staticData: { heading: '频道' },
  loader: async ({ context, params }) => {
    const channelId = parseId(params.id);
    void context.queryClient.prefetchInfiniteQuery(feedQueryOptions({ channelId }));
    await context.queryClient.ensureQueryData(channelDetailQueryOptions(channelId));
  },
  pendingComponent: PagePending,
  errorComponent: RouteError,
  component: ChannelPage,
});

function ChannelPage() {
  const { id } = channelListRoute.useParams();
  const channelId = parseId(id);
  const { data: channel } = useSuspenseQuery(channelDetailQueryOptions(channelId));
  const queryClient = useQueryClient();
  // A follow changes the follower count and is_follow, and what the 关注 feed lists.
  const refreshChannels = () => {
    void queryClient.invalidateQueries({ queryKey: channelKeys.all });
    void queryClient.invalidateQueries({ queryKey: feedKeys.source({ tab: 'follow' }) });
  };
  return (
    <div className="content-page">
      <ChannelHeader channel={channel} action={<ChannelFollowButton channel={channel} onChange={refreshChannels} />} />
      <PostList
        options={feedQueryOptions({ channelId })}
        label={`${channel.channel_name}的动态`}
        emptyTitle="这个频道还没有动态"
      />
    </div>
  );
}

export const inviteChannelListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite/channelList',
  staticData: { heading: '频道列表' },
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(channelCategoriesQueryOptions());
  },
  component: InviteChannelListPage,
});

function InviteChannelListPage() {
  return (
    <Page title="频道列表">
      <p className="page-lead">挑选感兴趣的频道，加入{PROVIDER_NAME}社区的讨论。</p>
      <ChannelDirectory />
    </Page>
  );
}
