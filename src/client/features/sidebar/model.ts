/**
 * The sidebar's items and what a click on one does: fixed items 全部, 关注 (children: the followed
 * channels) and 精华, then the explore items. External targets open in a new window; a click on the
 * active item that has children toggles it.
 */
import { isHttpUrl } from '#shared/links.ts';
import type { Channel, ExploreItem } from '#shared/schemas.ts';

export type SidebarIcon = 'all' | 'follow' | 'good' | 'explore' | 'external';

export interface SidebarChild {
  key: string;
  title: string;
  channelId: number;
}

export interface SidebarItem {
  key: string;
  title: string;
  /** An in-app path (with optional query) or an external http(s) URL. */
  target: string;
  external: boolean;
  icon: SidebarIcon;
  children: SidebarChild[];
  /** A click on an item that needs login asks for one first; no item currently does (nothing checks it yet). */
  needsLogin: boolean;
}

export function buildSidebarItems(followed: readonly Channel[], explore: readonly ExploreItem[]): SidebarItem[] {
  const fixed: SidebarItem[] = [
    { key: 'all', title: '全部', target: '/home', external: false, icon: 'all', children: [], needsLogin: false },
    {
      key: 'follow',
      title: '关注',
      target: '/follow',
      external: false,
      icon: 'follow',
      needsLogin: false,
      children: followed.map((channel) => ({
        key: `follow-${channel.channel_id}`,
        title: channel.channel_name,
        channelId: channel.channel_id,
      })),
    },
    { key: 'good', title: '精华', target: '/good', external: false, icon: 'good', children: [], needsLogin: false },
  ];
  const remote = explore
    .filter((item) => item.title.trim() && item.redirect_param.trim())
    .map((item): SidebarItem => {
      const target = item.redirect_param.trim();
      const external = isHttpUrl(target);
      return {
        key: `explore-${item.id}`,
        title: item.title,
        target: external || target.startsWith('/') ? target : `/${target}`,
        external,
        icon: external ? 'external' : 'explore',
        children: [],
        needsLogin: false,
      };
    });
  return [...fixed, ...remote];
}

function pathOf(target: string): string {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** Whether the item is the current page (its path, or a page below it). */
export function isItemActive(item: SidebarItem, pathname: string): boolean {
  if (item.external) return false;
  const path = pathOf(item.target);
  const current = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return current === path || current.startsWith(`${path}/`);
}

export type SidebarClickAction = 'external' | 'toggle' | 'navigate';

/**
 * What a click on an item does:
 * - external target: open it in a new window;
 * - the active item with children, showing itself (no child selected): toggle its children;
 * - otherwise: go there (an item with children opens them).
 */
export function sidebarClickAction(item: SidebarItem, pathname: string, selectedChildId: number | undefined): SidebarClickAction {
  if (item.external) return 'external';
  if (item.children.length > 0 && isItemActive(item, pathname) && selectedChildId === undefined) return 'toggle';
  return 'navigate';
}

/** Children show when the user opened them, or by default when the item is active. */
export function isItemOpen(item: SidebarItem, active: boolean, expanded: Readonly<Record<string, boolean>>): boolean {
  if (item.children.length === 0) return false;
  return expanded[item.key] ?? active;
}
