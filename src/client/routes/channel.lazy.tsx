import { useSuspenseQuery } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { channelDetailQueryOptions } from '../entities/channel/queries.ts';
import { feedQueryOptions } from '../entities/post/queries.ts';
import { ChannelDirectory } from '../features/channel/components/ChannelDirectory.tsx';
import { ChannelFollowButton } from '../features/channel/components/ChannelFollowButton.tsx';
import { ChannelHeader } from '../features/channel/components/ChannelHeader.tsx';
import { PostList } from '../features/feed/components/PostList.tsx';
import { PROVIDER_NAME } from '../platform/runtime-config.ts';
import { Page } from '../ui/Page.tsx';
import { parseId } from './params.ts';

export const channelListLazyRoute = createLazyRoute('/channel/list/$id')({ component: ChannelPage });

function ChannelPage() {
  const { id } = channelListLazyRoute.useParams();
  const channelId = parseId(id);
  const { data: channel } = useSuspenseQuery(channelDetailQueryOptions(channelId));
  return (
    <div className="content-page">
      <ChannelHeader channel={channel} action={<ChannelFollowButton channel={channel} />} />
      <PostList
        options={feedQueryOptions({ channelId })}
        label={`${channel.channel_name}的动态`}
        emptyTitle="这个频道还没有动态"
      />
    </div>
  );
}

export const inviteChannelListLazyRoute = createLazyRoute('/invite/channelList')({ component: InviteChannelListPage });

function InviteChannelListPage() {
  return (
    <Page title="频道列表">
      <p className="page-lead">挑选感兴趣的频道，加入{PROVIDER_NAME}社区的讨论。</p>
      <ChannelDirectory />
    </Page>
  );
}
