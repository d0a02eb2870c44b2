import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { IconChevronLeft, IconSearch } from '../../ui/icons.tsx';
import type { FeedTab } from '../../entities/post/queries.ts';
import { Brand, HeaderAiEntry, HeaderInstallEntry } from './Header.tsx';

/** Mobile: a compact top bar; on sub-pages a back button and the page heading. */
export function MobileTopBar({
  heading,
  onBack,
  userSlot,
}: {
  /** Null on the feed pages (the brand shows instead). */
  heading: string | null;
  onBack: () => void;
  userSlot: ReactNode;
}) {
  return (
    <header className="mobile-bar">
      {heading === null ? (
        <>
          <Brand compact />
          <div className="mobile-bar__actions">
            <HeaderInstallEntry />
            <HeaderAiEntry />
            {userSlot}
          </div>
        </>
      ) : (
        <>
          <button type="button" className="mobile-bar__back" onClick={onBack} aria-label="返回">
            <IconChevronLeft size={24} />
          </button>
          {/* Not a heading: the page below has its own h1 (visually hidden on mobile). */}
          <p className="mobile-bar__title">{heading}</p>
          <div className="mobile-bar__actions mobile-bar__actions--end">
            <HeaderAiEntry />
          </div>
        </>
      )}
    </header>
  );
}

const tabs: { key: FeedTab; label: string; to: '/home' | '/follow' | '/good' }[] = [
  { key: 'all', label: '全部', to: '/home' },
  { key: 'follow', label: '关注', to: '/follow' },
  { key: 'good', label: '精华', to: '/good' },
];

/** Mobile: the feed tabs under the top bar, edge to edge; 发现 opens every other sidebar item. */
export function MobileFeedTabs({ active, onExplore }: { active: FeedTab; onExplore: () => void }) {
  return (
    // A landmark of its own: 搜索 beside the feeds' navigation is inside one, as all content must be.
    <section className="feed-tabs" aria-label="动态导航">
      <nav className="feed-tabs__nav" aria-label="动态分类">
        {tabs.map((tab) => (
          <Link
            key={tab.key}
            to={tab.to}
            className={`feed-tabs__tab${tab.key === active ? ' feed-tabs__tab--active' : ''}`}
            aria-current={tab.key === active ? 'page' : undefined}
          >
            {tab.label}
          </Link>
        ))}
        <button type="button" className="feed-tabs__tab" aria-haspopup="dialog" onClick={onExplore}>
          发现
        </button>
      </nav>
      {/* Beside the feeds, not one of them: one tap to the search page, its field focused. */}
      <Link to="/search" className="feed-tabs__search" aria-label="搜索">
        <IconSearch size={22} />
      </Link>
    </section>
  );
}
