import { useSuspenseQuery } from '@tanstack/react-query';
import type { RouterContext } from './root.tsx';
import { createLazyRoute } from '@tanstack/react-router';
import { topicPostsQueryOptions } from '../entities/post/queries.ts';
import { PostList } from '../features/feed/components/PostList.tsx';
import { TopicHeader } from '../features/topic/components/TopicHeader.tsx';
import { TopicList } from '../features/topic/components/TopicList.tsx';
import { topicDetailQueryOptions, topicListQueryOptions } from '../entities/topic/queries.ts';
import { Page } from '../ui/Page.tsx';
import { openInAppHref } from './app-link.ts';
import { parseId } from './params.ts';

/** The loader of topicList: loaded with this page's code. */
export async function loadTopicList({ context }: { context: RouterContext }): Promise<void> {
  await context.queryClient.ensureInfiniteQueryData(topicListQueryOptions());
}

/** The loader of topicHome: loaded with this page's code. */
export async function loadTopicHome({ context, params }: { context: RouterContext; params: { id: string } }): Promise<void> {
  const topicId = parseId(params.id);
  void context.queryClient.prefetchInfiniteQuery(topicPostsQueryOptions(topicId));
  await context.queryClient.ensureQueryData(topicDetailQueryOptions(topicId));
}

export const topicListLazyRoute = createLazyRoute('/topic/list')({ component: TopicListPage });

function TopicListPage() {
  return (
    <Page title="话题列表">
      <div className="card card--flush">
        <TopicList />
      </div>
    </Page>
  );
}

export const topicHomeLazyRoute = createLazyRoute('/topic/comment/$id')({ component: TopicHomePage });

function TopicHomePage() {
  const { id } = topicHomeLazyRoute.useParams();
  const topicId = parseId(id);
  const { data: topic } = useSuspenseQuery(topicDetailQueryOptions(topicId));
  const inApp = openInAppHref({ name: 'topicDetail', topicId, topicName: topic.topic_name });
  return (
    <div className="content-page">
      <TopicHeader topic={topic} appLink={inApp} />
      <PostList options={topicPostsQueryOptions(topicId)} label={`#${topic.topic_name}# 的动态`} emptyTitle="这个话题还没有动态" />
    </div>
  );
}
