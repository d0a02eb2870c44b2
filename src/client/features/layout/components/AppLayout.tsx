import type { ReactNode } from 'react';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import { AiWidget } from './AiWidget.tsx';
import { BackToTop } from './BackToTop.tsx';
import { Header } from './Header.tsx';
import { MobileFeedTabs, MobileTopBar, type FeedTabKey } from './MobileBars.tsx';
import { OfflineBanner, UpdateBanner } from './StatusBanners.tsx';

export interface AppLayoutProps {
  children: ReactNode;
  /** The PC sidebar; shown only on pages that have one. */
  sidebar: ReactNode;
  showSidebar: boolean;
  /** Extra column on the right of PC feed pages. */
  aside?: ReactNode;
  /** The header's login/user area. */
  userSlot: ReactNode;
  /** Mobile top bar heading on sub-pages; null on the feed pages. */
  heading: string | null;
  /** The feed tab of this page (mobile tabs), if it is a feed page. */
  feedTab: FeedTabKey | null;
  onBack: () => void;
}

/**
 * The page frame. It follows the viewport (useLayoutStore.isMobile, below 860 px):
 * PC: fixed header, a 1200 px page with the 220 px sidebar and the content area (at least
 * window height - 66), a return-to-top button. Mobile: a compact top bar, the feed tabs
 * on feed pages, edge-to-edge content, no sidebar.
 */
export function AppLayout({ children, sidebar, showSidebar, aside, userSlot, heading, feedTab, onBack }: AppLayoutProps) {
  const isMobile = useLayoutStore((s) => s.isMobile);
  return (
    <div className={`app ${isMobile ? 'app--mobile' : 'app--pc'}`}>
      <a className="skip-link" href="#main">
        跳到主要内容
      </a>
      <OfflineBanner />
      <UpdateBanner />
      {isMobile ? (
        <div className="mobile-chrome">
          <MobileTopBar heading={heading} onBack={onBack} userSlot={userSlot} />
          {feedTab ? <MobileFeedTabs active={feedTab} /> : null}
        </div>
      ) : (
        <Header userSlot={userSlot} />
      )}
      <div className={`page${showSidebar && !isMobile ? ' page--with-sidebar' : ''}`}>
        {showSidebar && !isMobile ? <aside className="page__sidebar">{sidebar}</aside> : null}
        <main id="main" className="page__content" tabIndex={-1}>
          {children}
        </main>
        {aside && !isMobile ? <aside className="page__aside">{aside}</aside> : null}
      </div>
      {isMobile ? null : <BackToTop />}
      <AiWidget />
    </div>
  );
}
