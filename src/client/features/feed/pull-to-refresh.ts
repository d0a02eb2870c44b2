/**
 * Pull to refresh on the mobile feeds, loaded on touch screens only.
 * A pull down from the top of a feed shows how far it has gone (下拉刷新, then 松开刷新); while
 * the finger pulls, isPullingdown is true. Let go past PULL_THRESHOLD_PX and the startRefresh
 * event goes out and the feed on screen is fetched again (every loaded page), 正在刷新… until
 * it has arrived.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { create } from 'zustand';
import { postKeys } from '../../entities/post/queries.ts';
import { useLayoutStore } from '../../platform/layout-store.ts';
import { feedSourceOf } from './feed-source.ts';
import './pull-to-refresh.css';

/** How far (after the resistance) a pull must go to refresh. */
export const PULL_THRESHOLD_PX = 64;
const MAX_PULL_PX = 96;
/** A finger moves the indicator half as far as itself. */
const RESISTANCE = 0.5;

export const usePullStore = create<{ isPullingdown: boolean }>()(() => ({ isPullingdown: false }));

export function startPullToRefresh(queryClient: QueryClient, router: AnyRouter): void {
  const indicator = document.createElement('div');
  indicator.className = 'pull-refresh';
  indicator.setAttribute('role', 'status');
  indicator.setAttribute('aria-live', 'polite');
  document.body.append(indicator);

  let startY: number | null = null;
  let distance = 0;
  let refreshing = false;

  const show = (text: string, height: number) => {
    indicator.textContent = text;
    indicator.style.height = `${height}px`;
    indicator.classList.toggle('pull-refresh--shown', height > 0);
  };
  const feedOnScreen = () => {
    const { pathname, search } = router.state.location;
    return feedSourceOf(pathname, search);
  };

  window.addEventListener(
    'touchstart',
    (event) => {
      const canPull =
        !refreshing &&
        event.touches.length === 1 &&
        window.scrollY <= 0 &&
        useLayoutStore.getState().isMobile &&
        feedOnScreen() !== null &&
        !document.querySelector('dialog[open]');
      startY = canPull ? event.touches[0]!.clientY : null;
      distance = 0;
    },
    { passive: true },
  );

  window.addEventListener(
    'touchmove',
    (event) => {
      if (startY === null) return;
      const pulled = (event.touches[0]!.clientY - startY) * RESISTANCE;
      if (pulled <= 0 || window.scrollY > 0) {
        if (distance > 0) show('', 0);
        distance = 0;
        usePullStore.setState({ isPullingdown: false });
        return;
      }
      // The page is at its top and the finger pulls down: the pull is ours, not a scroll.
      if (event.cancelable) event.preventDefault();
      distance = Math.min(pulled, MAX_PULL_PX);
      usePullStore.setState({ isPullingdown: true });
      show(distance >= PULL_THRESHOLD_PX ? '松开刷新' : '下拉刷新', distance);
    },
    { passive: false },
  );

  const release = () => {
    if (startY === null) return;
    startY = null;
    usePullStore.setState({ isPullingdown: false });
    const source = feedOnScreen();
    if (distance < PULL_THRESHOLD_PX || !source) {
      show('', 0);
      return;
    }
    refreshing = true;
    show('正在刷新…', PULL_THRESHOLD_PX);
    window.dispatchEvent(new Event('startRefresh'));
    void queryClient.refetchQueries({ queryKey: postKeys.feed(source), exact: true }).finally(() => {
      refreshing = false;
      show('', 0);
    });
  };
  window.addEventListener('touchend', release);
  window.addEventListener('touchcancel', release);
}
