/**
 * appAudioStatus: whether the native app's own audio player is playing under the page. The app
 * tells it by calling window.appAudioStatus(status) or by an `appAudioStatus` event
 * ({detail: status}); the page leaves room for the player while it shows (html[data-app-audio],
 * layout.css).
 */
import { create } from 'zustand';

export type AppAudioStatus = 'playing' | 'paused' | 'stopped';

const STATUSES: readonly string[] = ['playing', 'paused', 'stopped'];

export interface AppAudioState {
  appAudioStatus: AppAudioStatus | null;
  setAppAudioStatus(status: unknown): void;
}

export const useAppAudioStore = create<AppAudioState>()((set) => ({
  appAudioStatus: null,
  setAppAudioStatus: (status) => {
    const next = typeof status === 'string' && STATUSES.includes(status) ? (status as AppAudioStatus) : null;
    set({ appAudioStatus: next });
    if (next) document.documentElement.dataset.appAudio = next;
    else delete document.documentElement.dataset.appAudio;
  },
}));

declare global {
  interface Window {
    appAudioStatus?: (status: unknown) => void;
  }
}

/** Listens to the app from now on, starting from what its bridge reports. */
export function startAppAudioStatus(initial: unknown): void {
  const { setAppAudioStatus } = useAppAudioStore.getState();
  setAppAudioStatus(initial);
  window.appAudioStatus = setAppAudioStatus;
  window.addEventListener('appAudioStatus', (event) => setAppAudioStatus((event as CustomEvent<unknown>).detail));
}
