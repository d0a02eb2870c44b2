/**
 * Online status (SPEC.md section 4, Offline). Fed by the window's online/offline events
 * (startOnlineTracking) and by the PWA layer when the service worker reports the network
 * failing or coming back (setOnline).
 */
import { create } from 'zustand';

export interface OnlineState {
  online: boolean;
  setOnline(online: boolean): void;
}

const initiallyOnline = (): boolean => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

export const useOnlineStore = create<OnlineState>()((set) => ({
  online: initiallyOnline(),
  setOnline: (online) => set((state) => (state.online === online ? state : { online })),
}));

/** Follows navigator.onLine now and on the window's online/offline events. Returns the unsubscribe. */
export function startOnlineTracking(): () => void {
  if (typeof window === 'undefined') return () => {};
  const { setOnline } = useOnlineStore.getState();
  const goOnline = (): void => setOnline(true);
  const goOffline = (): void => setOnline(false);
  setOnline(initiallyOnline());
  window.addEventListener('online', goOnline);
  window.addEventListener('offline', goOffline);
  return () => {
    window.removeEventListener('online', goOnline);
    window.removeEventListener('offline', goOffline);
  };
}
