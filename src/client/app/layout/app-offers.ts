/**
 * What the browser offers the app: a new version that waits (the service worker reported it;
 * `applyUpdate` activates it and reloads: 有新版本 · 刷新) and installing the app
 * (beforeinstallprompt; `install` opens the browser's dialog: 安装应用).
 */
import { create } from 'zustand';

interface AppOffers {
  applyUpdate: (() => void) | null;
  /** 稍后: the update prompt stays away until the next offer. */
  updateDismissed: boolean;
  install: (() => void) | null;
}

export const useAppOffers = create<AppOffers>()(() => ({ applyUpdate: null, updateDismissed: false, install: null }));

/** The event Chromium-based browsers fire when the app can be installed (not in TypeScript's DOM). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
}

/**
 * Keeps the browser's offer to install the app for our own 安装应用 entry (the browser's own
 * mini-infobar stays away). The offer is good for one dialog; the browser offers again later
 * if the user said no. Once installed it is gone.
 */
export function keepInstallOffer(): void {
  addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    useAppOffers.setState({
      install: () => {
        useAppOffers.setState({ install: null });
        void (event as BeforeInstallPromptEvent).prompt();
      },
    });
  });
  addEventListener('appinstalled', () => useAppOffers.setState({ install: null }));
}
