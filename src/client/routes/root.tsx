import { useQuery, type QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet, useMatches, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect } from 'react';
import { AppLayout, focusMainContent } from '../features/layout/components/AppLayout.tsx';
import { carryParamsMiddleware } from '../features/navigation/carry-params.ts';
import { canGoBackInSession } from '../features/navigation/visit-history.ts';
import { HeaderUserSlot } from '../features/session/components/HeaderUserSlot.tsx';
import { LoginDialog } from '../features/session/components/LoginDialog.tsx';
import { closeLoginDialog } from '../features/session/login-store.ts';
import { followedChannelsQueryOptions, sessionQueryOptions } from '../features/session/queries.ts';
import { Sidebar } from '../features/sidebar/components/Sidebar.tsx';
import { closePageLayers } from '../ui/overlay/page-layers.ts';
import { UiHosts } from '../ui/UiHosts.tsx';
import { documentTitle } from './meta.ts';
import { PagePending, RouteError } from './route-states.tsx';

export interface RouterContext {
  queryClient: QueryClient;
}

function RootComponent() {
  const router = useRouter();
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const staticData = leaf?.staticData ?? {};
  const title = documentTitle(matches);

  // The one place the document title is set.
  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    // The gallery, picker and login popup belong to the page being left: close them before the
    // router saves that page's scroll position (their scroll lock would otherwise be saved as 0).
    const offNavigate = router.subscribe('onBeforeNavigate', (event) => {
      if (!event.hrefChanged) return;
      closePageLayers();
      closeLoginDialog();
    });
    // A new page: focus its content, unless a modal (the login popup) holds the focus.
    const offRendered = router.subscribe('onRendered', (event) => {
      if (!event.fromLocation || !event.pathChanged) return;
      if (document.activeElement?.closest('[aria-modal="true"]')) return;
      focusMainContent({ preventScroll: true });
    });
    return () => {
      offNavigate();
      offRendered();
    };
  }, [router]);

  const session = useQuery(sessionQueryOptions());
  const uid = session.data?.uid;
  const followed = useQuery({ ...followedChannelsQueryOptions(uid ?? 0), enabled: uid !== undefined });

  const onBack = useCallback(() => {
    if (canGoBackInSession() && window.history.length > 1) router.history.back();
    else void router.navigate({ to: '/home' });
  }, [router]);

  return (
    <>
      <AppLayout
        sidebar={<Sidebar followedChannels={uid !== undefined ? (followed.data ?? []) : []} />}
        showSidebar={staticData.sidebar === true}
        userSlot={<HeaderUserSlot />}
        heading={staticData.feedTab ? null : (staticData.heading ?? title)}
        feedTab={staticData.feedTab ?? null}
        onBack={onBack}
      >
        <Outlet />
      </AppLayout>
      <UiHosts />
      <LoginDialog />
    </>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootComponent,
  // gk_ / utm_ / *code* query parameters travel with every navigation.
  search: { middlewares: [carryParamsMiddleware] },
  // Logged-in state is fetched on first navigation (SPEC.md section 1), without holding the page.
  beforeLoad: ({ context }) => {
    void context.queryClient.prefetchQuery(sessionQueryOptions());
  },
  errorComponent: RouteError,
  pendingComponent: PagePending,
});
