/**
 * A feed kept fresh, started once by the app: 有 N 条新动态 checked on focus, on coming back to the
 * tab or online, and every minute while visible; pull to refresh on touch screens. Their code is
 * one chunk (fresh-feed.ts), loaded with the first check or on a touch screen.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { loadChunk } from '../../lib/chunk.ts';
import { feedSourceOf } from './feed-source.ts';

/** How often a feed on screen looks for newer posts while the page is visible. */
export const NEW_POSTS_CHECK_MS = 60_000;
/** No check this soon after the last (or after start: the feed was just loaded). */
export const NEW_POSTS_MIN_GAP_MS = 5_000;

const loadFreshFeed = () => loadChunk(() => import('./fresh-feed.ts'));

export function startFreshFeed(queryClient: QueryClient, router: AnyRouter): void {
  let lastCheck = Date.now();
  const checkNewPosts = () => {
    if (document.visibilityState !== 'visible' || feedSourceOf(location.pathname, {}) === null) return;
    if (Date.now() - lastCheck < NEW_POSTS_MIN_GAP_MS) return;
    lastCheck = Date.now();
    loadFreshFeed().then((m) => m.checkNewPosts(queryClient, router), () => undefined);
  };
  setInterval(checkNewPosts, NEW_POSTS_CHECK_MS);
  window.addEventListener('focus', checkNewPosts);
  window.addEventListener('online', checkNewPosts);
  document.addEventListener('visibilitychange', checkNewPosts);

  if (navigator.maxTouchPoints > 0) {
    loadFreshFeed().then((m) => m.startPullToRefresh(queryClient, router), () => undefined);
  }
}
