/** /topic/list (话题列表) and /topic/comment/$id (话题主页, with an app deep link). */
import { useSuspenseQuery } from '@tanstack/react-query';
import { createRoute } from '@tanstack/react-router';
import { PostList } from '../features/feed/components/PostList.tsx';
import { TopicHeader } from '../features/topic/components/TopicHeader.tsx';
import { TopicList } from '../features/topic/components/TopicList.tsx';
import { topicDetailQueryOptions, topicListQueryOptions, topicPostsQueryOptions } from '../features/topic/queries.ts';
import { Page } from '../ui/Page.tsx';
import { openInAppHref } from './app-link.ts';
import { parseId } from './params.ts';
import { PagePending, RouteError } from './route-states.tsx';
import { rootRoute } from './root.tsx';

export const topicListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/topic/list',
  staticData: { title: '话题列表', heading: '话题列表' },
  loader: async ({ context }) => {
    await context.queryClient.ensureInfiniteQueryData(topicListQueryOptions());
  },
  pendingComponent: PagePending,
  errorComponent: RouteError,
  component: TopicListPage,
});

function TopicListPage() {
  return (
    <Page title="话题列表">
      <div className="card card--flush">
        <TopicList />
      </div>
    </Page>
  );
}

export const topicHomeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/topic/comment/$id',
  staticData: { title: '话题主页', heading: '话题主页' },
  loader: async ({ context, params }) => {
    const topicId = parseId(params.id);
    void context.queryClient.prefetchInfiniteQuery(topicPostsQueryOptions(topicId));
    await context.queryClient.ensureQueryData(topicDetailQueryOptions(topicId));
  },
  pendingComponent: PagePending,
  errorComponent: RouteError,
  component: TopicHomePage,
});

function TopicHomePage() {
  const { id } = topicHomeRoute.useParams();
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
