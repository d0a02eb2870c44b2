import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { RouterContext } from './root.tsx';
import { createLazyRoute } from '@tanstack/react-router';
import { userPostsQueryOptions } from '../entities/post/queries.ts';
import { userInfoQueryOptions } from '../entities/user/queries.ts';
import { visitUserOf } from '../entities/user/visit.ts';
import { PostList } from '../features/feed/components/PostList.tsx';
import { UserChannels } from '../features/user/components/UserChannels.tsx';
import { UserNotes } from '../features/user/components/UserNotes.tsx';
import { UserProfile } from '../features/user/components/UserProfile.tsx';
import { Tabs } from '../ui/Tabs.tsx';

/** The loader of userCenter: loaded with this page's code. */
export async function loadUserCenter({ context, params }: { context: RouterContext; params: { id: string } }): Promise<void> {
  const visit = visitUserOf(params.id);
  void context.queryClient.prefetchInfiniteQuery(userPostsQueryOptions(visit));
  await context.queryClient.ensureQueryData(userInfoQueryOptions(visit));
}

export const userCenterLazyRoute = createLazyRoute('/usercenter/$id')({ component: UserCenterPage });

/** /usercenter/$id: the profile, then tabs 动态, 频道 and 笔记. */
function UserCenterPage() {
  const { id } = userCenterLazyRoute.useParams();
  const visit = visitUserOf(id);
  const { data: user } = useSuspenseQuery(userInfoQueryOptions(visit));
  const [tab, setTab] = useState('posts');
  return (
    <div className="content-page">
      <UserProfile user={user} />
      <Tabs
        label={user.is_self ? '我的内容' : 'TA 的内容'}
        selected={tab}
        onSelect={setTab}
        tabs={[
          {
            key: 'posts',
            label: '动态',
            panel: (
              <PostList
                options={userPostsQueryOptions(visit)}
                label={`${user.nick}的动态`}
                emptyTitle={user.is_self ? '你还没有发过动态' : 'TA 还没有发过动态'}
              />
            ),
          },
          { key: 'channels', label: '频道', panel: <UserChannels uid={user.uid} isSelf={user.is_self} /> },
          { key: 'notes', label: '笔记', panel: <UserNotes ucode={user.ucode} isSelf={user.is_self} /> },
        ]}
      />
    </div>
  );
}
