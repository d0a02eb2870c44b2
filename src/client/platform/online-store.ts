/**
 * Online status, the one the whole app follows (src/client/README.md, 'Offline'). Fed by the
 * window's online/offline events (startOnlineTracking) and by the PWA layer when the service worker
 * reports the network failing or coming back (setOnline).
 */
import { create } from 'zustand';
import type { OnlineSource } from '../lib/query-client.ts';

export interface OnlineState {
  online: boolean;
  setOnline(online: boolean): void;
}

const initiallyOnline = (): boolean => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

export const useOnlineStore = create<OnlineState>()((set) => ({
  // Online, as a page the server rendered shows it (zustand's server snapshot, which hydration
  // reads); the browser's word, set below, shows once the page is hydrated.
  online: true,
  setOnline: (online) => set((state) => (state.online === online ? state : { online })),
}));
useOnlineStore.getState().setOnline(initiallyOnline());

/** The store as the query client follows it (lib/query-client.ts's followOnline). */
export const onlineSource: OnlineSource = {
  isOnline: () => useOnlineStore.getState().online,
  subscribe: (onChange) =>
    useOnlineStore.subscribe(({ online }, before) => {
      if (online !== before.online) onChange(online);
    }),
};

/** Since when the network is known to work: the page's start, then each online event. */
let onlineSince = Date.now();

/**
 * The service worker's word on the network: a failed fetch means offline, a fetch that
 * succeeded means online, unless the browser itself says it has no network (a worker's fetch
 * can succeed from a source the page cannot use, and believing it would flap the state and
 * show 网络异常 a second time). A failure from before the network was known to work again (the
 * worker still remembers one from before this page opened, or before the network came back) is
 * old news: believing it would say 网络异常 over a page that loads fine.
 */
export function reportWorkerNetworkStatus(online: boolean, failedAt?: number): void {
  if (online && typeof navigator !== 'undefined' && navigator.onLine === false) return;
  if (!online && failedAt !== undefined && failedAt < onlineSince) return;
  useOnlineStore.getState().setOnline(online);
}

/** Follows navigator.onLine now and on the window's online/offline events. Returns the unsubscribe. */
export function startOnlineTracking(): () => void {
  if (typeof window === 'undefined') return () => {};
  const { setOnline } = useOnlineStore.getState();
  const goOnline = (): void => {
    onlineSince = Date.now();
    setOnline(true);
  };
  const goOffline = (): void => setOnline(false);
  setOnline(initiallyOnline());
  window.addEventListener('online', goOnline);
  window.addEventListener('offline', goOffline);
  return () => {
    window.removeEventListener('online', goOnline);
    window.removeEventListener('offline', goOffline);
  };
}
