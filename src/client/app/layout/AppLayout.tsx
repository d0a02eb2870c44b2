import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useLayoutStore } from '../../platform/layout-store.ts';
import AiWidget from './AiWidget.tsx';
import { BackToTop } from './BackToTop.tsx';
import { Header } from './Header.tsx';
import type { FeedTab } from '../../entities/post/queries.ts';
import { MobileFeedTabs, MobileTopBar } from './MobileBars.tsx';
import { IconPlus } from '../../ui/icons.tsx';
import { LazyLayer, lazyComponent } from '../../ui/LazyLayer.tsx';
import { useOnlineStore } from '../../platform/online-store.ts';
import { useFocusClearOfBar } from '../../ui/focus-clear-of-bar.ts';
import { useAppOffers } from './app-offers.ts';
import { useRenderingFirstScreen } from '../../lib/first-screen-render.ts';
import './layout.css';

export interface AppLayoutProps {
  children: ReactNode;
  /** The PC sidebar; shown only on pages that have one. */
  sidebar: ReactNode;
  showSidebar: boolean;
  /** The header's login/user area. */
  userSlot: ReactNode;
  /** Mobile top bar heading on sub-pages; null on the feed pages. */
  heading: string | null;
  /** The feed tab of this page (mobile tabs), if it is a feed page. */
  feedTab: FeedTab | null;
  /** 发动态. */
  onCompose: () => void;
  onBack: () => void;
}

const MAIN_ID = 'main';

// The banners show only offline or with an update waiting: their code comes when they do.
const OfflineBanner = lazyComponent(() => import('./OfflineBanner.tsx'));
const UpdateBanner = lazyComponent(() => import('./UpdateBanner.tsx'));
// Mobile's 发现 sheet comes with its first opening.
const ExploreSheet = lazyComponent(() => import('./ExploreSheet.tsx'));

function StatusBanners() {
  const offline = useOnlineStore((s) => !s.online);
  const update = useAppOffers((s) => s.applyUpdate !== null && !s.updateDismissed);
  return (
    <LazyLayer>
      {offline ? <OfflineBanner /> : null}
      {update ? <UpdateBanner /> : null}
    </LazyLayer>
  );
}

/**
 * Moves keyboard and screen-reader focus to the main content: after a navigation (the link
 * that had focus is gone with its page) and from the skip link (without a #main history entry).
 */
export function focusMainContent({ preventScroll = false }: { preventScroll?: boolean } = {}): void {
  document.getElementById(MAIN_ID)?.focus({ preventScroll });
}

/**
 * The page frame. It follows the viewport (useLayoutStore.isMobile, below 860 px):
 * PC: fixed header, a 1200 px page with the 220 px sidebar and the content area (at least
 * window height - 66), a return-to-top button. Mobile: a compact top bar, the feed tabs
 * on feed pages, edge-to-edge content, no sidebar.
 */
export function AppLayout({ children, sidebar, showSidebar, userSlot, heading, feedTab, onBack, onCompose }: AppLayoutProps) {
  const isMobile = useLayoutStore((s) => s.isMobile);
  const renderingFirstScreen = useRenderingFirstScreen();
  const [exploring, setExploring] = useState(false);
  const closeExplore = useCallback(() => setExploring(false), []);
  // Shift+Tab up the page never leaves the focused control under the header.
  const headerRef = useRef<HTMLElement>(null);
  const mobileChromeRef = useRef<HTMLDivElement>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  useFocusClearOfBar(isMobile ? mobileChromeRef : headerRef, true, { edge: 'top', contentRef: pageRef });
  return (
    <div className={`app ${isMobile ? 'app--mobile' : 'app--pc'}`}>
      <a
        className="skip-link"
        href={`#${MAIN_ID}`}
        onClick={(event) => {
          event.preventDefault();
          focusMainContent();
        }}
      >
        跳到主要内容
      </a>
      <StatusBanners />
      {isMobile ? (
        <div className="mobile-chrome" ref={mobileChromeRef}>
          <MobileTopBar heading={heading} onBack={onBack} userSlot={userSlot} />
          {feedTab ? <MobileFeedTabs active={feedTab} onExplore={() => setExploring(true)} /> : null}
        </div>
      ) : (
        <Header ref={headerRef} userSlot={userSlot} onCompose={onCompose} />
      )}
      <div ref={pageRef} className={`page${showSidebar && !isMobile ? ' page--with-sidebar' : ''}`}>
        {showSidebar && !isMobile ? <aside className="page__sidebar">{sidebar}</aside> : null}
        <main id={MAIN_ID} className="page__content" tabIndex={-1}>
          {children}
        </main>
      </div>
      {isMobile && feedTab ? (
        <button type="button" className="compose-fab" onClick={onCompose}>
          <IconPlus size={22} />
          <span>发动态</span>
        </button>
      ) : null}
      {isMobile && exploring ? (
        <LazyLayer onError={closeExplore}>
          <ExploreSheet onClose={closeExplore}>{sidebar}</ExploreSheet>
        </LazyLayer>
      ) : null}
      {isMobile ? null : <BackToTop />}
      {/* The AI promo comes once the page is the app's: it is placed by the window's layout, which
          the server does not know. (Its code stays in the entry: a chunk of its own cost more.) */}
      {renderingFirstScreen ? null : <AiWidget />}
    </div>
  );
}
