/**
 * The page frame around every route (the router's InnerWrap): layout, header user area,
 * sidebar, the document title, focus after navigation, and the app-wide layers.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useMatches, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, type ReactNode } from 'react';
import { followedChannelsQueryOptions } from '../entities/channel/queries.ts';
import { sessionQueryOptions } from '../entities/session/queries.ts';
import { HeaderUserSlot } from '../features/auth/components/HeaderUserSlot.tsx';
import { LoginDialog } from '../features/auth/components/LoginDialog.tsx';
import { closeLoginDialog } from '../features/auth/login-store.ts';
import { closeComposer, openComposer } from '../features/compose/open.ts';
import { Sidebar } from '../features/sidebar/components/Sidebar.tsx';
import { documentTitle } from '../routes/meta.ts';
import { closePageLayers } from '../ui/overlay/page-layers.ts';
import { LazyLayer, lazyComponent } from '../ui/LazyLayer.tsx';
import { UiHosts } from '../ui/UiHosts.tsx';
import { AppLayout, focusMainContent } from './layout/AppLayout.tsx';
import { loadChunk } from '../lib/chunk.ts';
import { canGoBackInSession } from '../lib/visit-history.ts';
import { useRenderingFirstScreen } from '../lib/first-screen-render.ts';

const Composer = lazyComponent(() => import('../features/compose/components/ComposerEntry.tsx'));
// 消息 comes with a login: a first visit (logged out) loads none of its code.
const NoticeEntry = lazyComponent(() => import('../features/notice/components/NoticeEntry.tsx'));

function NoticeSlot() {
  const loggedIn = useQuery(sessionQueryOptions()).data != null;
  // The first screen is the server's, which knows no session: hydrated as it was rendered.
  const renderingFirstScreen = useRenderingFirstScreen();
  return loggedIn && !renderingFirstScreen ? (
    <LazyLayer>
      <NoticeEntry />
    </LazyLayer>
  ) : null;
}

/** The composer over the page while ?compose=1 (its code loads when first opened). */
function ComposerHost() {
  const router = useRouter();
  // The shell wraps the matches, outside any match's context: read the location, not a match.
  const compose = useLocation({ select: (location) => location.search.compose });
  if (compose !== 1) return null;
  const close = () => closeComposer(router);
  return (
    <LazyLayer onError={close}>
      <Composer onClose={close} onEditCode={() => void router.navigate({ to: '/post' })} />
    </LazyLayer>
  );
}

export function AppShell({ children }: { children: ReactNode }) {
  const router = useRouter();
  const queryClient = useQueryClient();
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
    // Left means the address changed since the last navigation began, not since the last page
    // finished loading (the event's hrefChanged): while the next page loads the one being left
    // is still shown, and Back from there goes to the page the router still calls the current one.
    let shownHref = router.latestLocation.href;
    const offNavigate = router.subscribe('onBeforeNavigate', (event) => {
      if (event.toLocation.href === shownHref) return;
      shownHref = event.toLocation.href;
      closePageLayers();
      closeLoginDialog();
    });
    // A new page: focus its content, unless a modal (the login popup) holds the focus.
    const offRendered = router.subscribe('onRendered', (event) => {
      if (!event.fromLocation || !event.pathChanged) return;
      if (document.activeElement?.closest('[aria-modal="true"]')) return;
      // A page that focused its own field as it opened (搜索) keeps it.
      if (document.activeElement instanceof HTMLElement && document.activeElement.dataset.pageFocus !== undefined) return;
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
  // What writing needs, kept for writing offline: read once someone is logged in (its own chunk).
  useEffect(() => {
    if (uid !== undefined) loadChunk(() => import('./writer-needs.ts')).then((needs) => needs.readWriterNeeds(queryClient, uid), () => undefined);
  }, [uid, queryClient]);

  const onBack = useCallback(() => {
    if (canGoBackInSession() && window.history.length > 1) router.history.back();
    else void router.navigate({ to: '/home' });
  }, [router]);

  return (
    <>
      <AppLayout
        sidebar={<Sidebar followedChannels={uid !== undefined ? (followed.data ?? []) : []} />}
        showSidebar={staticData.sidebar === true}
        userSlot={
          <>
            <NoticeSlot />
            <HeaderUserSlot />
          </>
        }
        heading={staticData.feedTab ? null : (staticData.heading ?? title)}
        feedTab={staticData.feedTab ?? null}
        onBack={onBack}
        onCompose={() => openComposer(router, queryClient)}
      >
        {children}
      </AppLayout>
      <ComposerHost />
      <UiHosts />
      <LoginDialog />
    </>
  );
}
