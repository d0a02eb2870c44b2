import { useQuery } from '@tanstack/react-query';
import { useNavigate, useRouter, useRouterState } from '@tanstack/react-router';
import type { MouseEvent, ReactNode } from 'react';
import type { Channel } from '#shared/schemas.ts';
import { IconChevronDown, IconExternal, IconHash, IconHome, IconStar, IconUsers } from '../../../ui/icons.tsx';
import { buildSidebarItems, isItemActive, isItemOpen, sidebarClickAction, type SidebarIcon, type SidebarItem } from '../model.ts';
import { sidebarExploreQueryOptions } from '../queries.ts';
import { useSidebarStore } from '../sidebar-store.ts';
import { track } from '../../../platform/tracking.ts';
import { useLayoutStore } from '../../../platform/layout-store.ts';
import './sidebar.css';

const icons: Record<SidebarIcon, ReactNode> = {
  all: <IconHome size={20} />,
  follow: <IconUsers size={20} />,
  good: <IconStar size={20} />,
  explore: <IconHash size={20} />,
  external: <IconExternal size={20} />,
};

function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

function selectedChannelId(search: Record<string, unknown>): number | undefined {
  const value = Number(search.channelId);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

// click_resource_position: which entry, counted from 1 down the sidebar.
const tracked = (kind: string, title: string, num: number) =>
  track('click_resource_position', { position_type: kind, position_name: title, position_num: num, page_title: document.title });

/**
 * The PC sidebar: 全部, 关注 (open to the followed channels), 精华, then the explore items. The active
 * item is in the brand colour; sub-items are 42 px high.
 */
export function Sidebar({ followedChannels }: { followedChannels: readonly Channel[] }) {
  const navigate = useNavigate();
  const router = useRouter();
  const location = useRouterState({ select: (s) => s.location });
  const explore = useQuery(sidebarExploreQueryOptions());
  const expanded = useSidebarStore((s) => s.expanded);
  // On a phone the sidebar is the 发现 sheet: 关注's channels show there unless closed.
  const isMobile = useLayoutStore((s) => s.isMobile);
  const toggle = useSidebarStore((s) => s.toggle);
  const setOpen = useSidebarStore((s) => s.setOpen);
  const items = buildSidebarItems(followedChannels, explore.data ?? []);
  const pathname = location.pathname;
  const childId = pathname === '/follow' ? selectedChannelId(location.search as Record<string, unknown>) : undefined;

  // Hrefs built by the router carry the gk_/utm_/code parameters into a new tab as well.
  const hrefOf = (item: SidebarItem) => {
    if (item.external) return item.target;
    // Only its path, query and hash are read: any base does (the server's render has no window).
    const url = new URL(item.target, 'http://localhost');
    return router.buildLocation({ to: url.pathname, search: router.options.parseSearch(url.search), hash: url.hash.slice(1) }).href;
  };

  const onItemClick = (item: SidebarItem, open: boolean, num: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    tracked(item.icon === 'explore' || item.icon === 'external' ? 'explore' : 'sidebar', item.title, num);
    const action = sidebarClickAction(item, pathname, childId);
    if (action === 'external' || !isPlainClick(event)) return; // the anchor itself does it
    event.preventDefault();
    if (action === 'toggle') {
      toggle(item.key, open);
      return;
    }
    if (item.children.length > 0) setOpen(item.key, true);
    void navigate({ href: item.target });
  };

  return (
    <nav className="sidebar" aria-label="社区导航">
      <ul className="sidebar__list">
        {items.map((item, index) => {
          const active = isItemActive(item, pathname);
          const open = isItemOpen(item, active || isMobile, expanded);
          const current = active && childId === undefined;
          return (
            <li key={item.key} className="sidebar__entry">
              <a
                href={hrefOf(item)}
                className={`sidebar__item${active ? ' sidebar__item--active' : ''}`}
                aria-current={current ? 'page' : undefined}
                aria-expanded={item.children.length > 0 ? open : undefined}
                {...(item.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                onClick={onItemClick(item, open, index + 1)}
              >
                <span className="sidebar__icon">{icons[item.icon]}</span>
                <span className="sidebar__title">{item.title}</span>
                {item.children.length > 0 ? (
                  <span className={`sidebar__chevron${open ? ' sidebar__chevron--open' : ''}`}>
                    <IconChevronDown size={16} />
                  </span>
                ) : null}
                {item.external ? <span className="visually-hidden">（在新窗口打开）</span> : null}
              </a>
              {item.children.length > 0 && open ? (
                <SidebarChildren items={item.children} childId={childId} />
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The channels under an open item (关注's), each a link to its feed, the one shown marked. */
function SidebarChildren({ items, childId }: { items: SidebarItem['children']; childId: number | undefined }) {
  const navigate = useNavigate();
  const router = useRouter();
  return (
    <ul className="sidebar__children">
      {items.map((child, childIndex) => {
        const childActive = childId === child.channelId;
        return (
          <li key={child.key}>
            <a
              href={router.buildLocation({ to: '/follow', search: { channelId: child.channelId } }).href}
              className={`sidebar__child${childActive ? ' sidebar__child--active' : ''}`}
              aria-current={childActive ? 'page' : undefined}
              onClick={(event) => {
                tracked('channel', child.title, childIndex + 1);
                if (!isPlainClick(event)) return;
                event.preventDefault();
                void navigate({ to: '/follow', search: { channelId: child.channelId } });
              }}
            >
              {child.title}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
