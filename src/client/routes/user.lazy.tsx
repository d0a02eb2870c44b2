import { useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { RouterContext } from './root.tsx';
import { createLazyRoute } from '@tanstack/react-router';
import { userPostsQueryOptions } from '../entities/post/queries.ts';
import { userInfoQueryOptions } from '../entities/user/queries.ts';
import { visitUserOf } from '#shared/visit.ts';
import { PostList } from '../features/feed/components/PostList.tsx';
import { UserChannels } from '../features/user/components/UserChannels.tsx';
import { UserNotes } from '../features/user/components/UserNotes.tsx';
import { UserProfile } from '../features/user/components/UserProfile.tsx';
import { NoticeSettingsPanel } from '../features/notice/components/NoticeSettingsPanel.tsx';
import { Tabs } from '../ui/Tabs.tsx';
import { track } from '../platform/tracking.ts';

/** The loader of userCenter: loaded with this page's code. */
export async function loadUserCenter({ context, params }: { context: RouterContext; params: { id: string } }): Promise<void> {
  const visit = visitUserOf(params.id);
  void context.queryClient.prefetchInfiniteQuery(userPostsQueryOptions(visit));
  await context.queryClient.ensureQueryData(userInfoQueryOptions(visit));
}

export const userCenterLazyRoute = createLazyRoute('/usercenter/$id')({ component: UserCenterPage });

const TAB_LABELS = { posts: '动态', channels: '频道', notes: '笔记', notices: '消息设置' };

/** /usercenter/$id: the profile, then tabs 动态, 频道 and 笔记. */
function UserCenterPage() {
  const { id } = userCenterLazyRoute.useParams();
  const visit = visitUserOf(id);
  const { data: user } = useSuspenseQuery(userInfoQueryOptions(visit));
  const [tab, setTab] = useState('posts');
  // One view per visit of a user centre, whoever's it is.
  useEffect(() => track('personal_home_page_view', { page_name: '个人主页' }), [id]);
  const onSelect = (key: string) => {
    track('personal_home_click_button', { button_name: TAB_LABELS[key as keyof typeof TAB_LABELS] ?? key });
    setTab(key);
  };
  return (
    <div className="content-page">
      <UserProfile user={user} />
      <Tabs
        label={user.is_self ? '我的内容' : 'TA 的内容'}
        selected={tab}
        onSelect={onSelect}
        tabs={[
          {
            key: 'posts',
            label: TAB_LABELS.posts,
            panel: (
              <PostList
                options={userPostsQueryOptions(visit)}
                label={`${user.nick}的动态`}
                emptyTitle={user.is_self ? '你还没有发过动态' : 'TA 还没有发过动态'}
                // The profile shows first; the posts (fetched alongside it) render in the background.
                firstPostsInBackground
              />
            ),
          },
          { key: 'channels', label: TAB_LABELS.channels, panel: <UserChannels uid={user.uid} isSelf={user.is_self} /> },
          { key: 'notes', label: TAB_LABELS.notes, panel: <UserNotes ucode={user.ucode} isSelf={user.is_self} /> },
          ...(user.is_self ? [{ key: 'notices', label: TAB_LABELS.notices, panel: <NoticeSettingsPanel uid={user.uid} /> }] : []),
        ]}
      />
    </div>
  );
}
