/**
 * The router: a code-based route tree with every page of the app (routes/), history mode,
 * the QueryClient in the router context (loaders call ensureQueryData with the same
 * queryOptions factories the components use), the app shell around every page, one default
 * pending and error component, and scroll restoration (kept-alive pages get their scroll position
 * back on every return; other new pages start at the top).
 */
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserHistory, createRouter } from '@tanstack/react-router';
import { booklistRoute } from '../routes/booklist.tsx';
import { channelListRoute, inviteChannelListRoute } from '../routes/channel.tsx';
import { codeDetailRoute, codeRoute, postCodeRoute } from '../routes/code.tsx';
import { commentRoute } from '../routes/comment.tsx';
import { complainRoute } from '../routes/complain.tsx';
import { errorRoute } from '../routes/error.tsx';
import { followRoute, goodRoute, homeRoute } from '../routes/feeds.tsx';
import { inviteRoute } from '../routes/invite.tsx';
import { messageDetailRoute, messagePosterRoute } from '../routes/message.tsx';
import { moderationRoute } from '../routes/moderation.tsx';
import { noticeRoute } from '../routes/notice.tsx';
import { isKeptAlive } from '../routes/meta.ts';
import { catchAllRoute, indexRoute } from '../routes/redirects.ts';
import { rootRoute } from '../routes/root.tsx';
import { searchRoute } from '../routes/search.tsx';
import { statementRoute } from '../routes/statement.tsx';
import { topicHomeRoute, topicListRoute } from '../routes/topic.tsx';
import { userCenterRoute } from '../routes/user.tsx';
import { AppShell } from './AppShell.tsx';
import { PagePending, RouteError } from './route-states.tsx';

export const routeTree = rootRoute.addChildren([
  indexRoute,
  homeRoute,
  followRoute,
  goodRoute,
  userCenterRoute,
  codeRoute,
  codeDetailRoute,
  channelListRoute,
  complainRoute,
  postCodeRoute,
  commentRoute,
  statementRoute,
  inviteRoute,
  inviteChannelListRoute,
  booklistRoute,
  messageDetailRoute,
  messagePosterRoute,
  noticeRoute,
  topicListRoute,
  topicHomeRoute,
  searchRoute,
  moderationRoute,
  errorRoute,
  catchAllRoute,
]);

export interface CreateAppRouterOptions {
  queryClient: QueryClient;
  /** Defaults to the browser's history (history mode). Tests pass a memory history. */
  history?: ReturnType<typeof createBrowserHistory>;
  /**
   * The page shows the first screen the server rendered (app/first-screen.server.tsx), which the
   * reader may have scrolled already: the first render leaves the scroll where it is (a new page
   * would otherwise start at the top).
   */
  keepFirstScroll?: boolean;
}

/** Scroll restoration on every render, or on every one but the first. */
function scrollRestorationOf(keepFirstScroll: boolean): true | (() => boolean) {
  if (!keepFirstScroll) return true;
  let first = true;
  return () => {
    const restore = !first;
    first = false;
    return restore;
  };
}

export function createAppRouter({ queryClient, history, keepFirstScroll = false }: CreateAppRouterOptions) {
  return createRouter({
    routeTree,
    history: history ?? createBrowserHistory(),
    context: { queryClient },
    InnerWrap: AppShell,
    defaultPendingComponent: PagePending,
    defaultErrorComponent: RouteError,
    // Loaders read through the query cache; the router itself caches nothing.
    defaultPreloadStaleTime: 0,
    defaultPreload: 'intent',
    // Show a page's skeleton only if loading takes a moment, and then long enough not to flash.
    defaultPendingMs: 150,
    defaultPendingMinMs: 300,
    scrollRestoration: scrollRestorationOf(keepFirstScroll),
    getScrollRestorationKey: (location) =>
      isKeptAlive(location.pathname) ? location.pathname : (location.state.__TSR_key ?? location.href),
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
