/**
 * PWA registration and online status (src/client/README.md, 'Offline'). The service worker (sw/)
 * tells the pages `{type: 'network-status', online}` when a fetch fails or works again; the client
 * shows 网络异常 while offline. Updates are prompted: a new worker waits, `onUpdateReady` gets a
 * function that activates it, and the page reloads once the new worker controls it. The
 * registration and its update lifecycle are workbox-window's, loaded after the first screen.
 */
import type { Workbox } from 'workbox-window';
import { announceAppUpdate } from '../lib/app-update.ts';

export interface RegisterServiceWorkerOptions {
  /** `failedAt`: when the failure behind an offline report happened (ms since the epoch). */
  onNetworkStatus(online: boolean, failedAt?: number): void;
  onUpdateReady(applyUpdate: () => void): void;
}

/** Message types shared with sw/constants.ts (the client does not import the worker's code). */
const MSG_NETWORK_STATUS = 'network-status';
const MSG_GET_NETWORK_STATUS = 'GET_NETWORK_STATUS';
const MSG_KEEP_FIRST_SCREEN = 'KEEP_FIRST_SCREEN';

/** Look for a new version this often while the page stays open. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

interface NetworkStatusMessage {
  type: typeof MSG_NETWORK_STATUS;
  online: boolean;
  at?: number;
}

function isNetworkStatusMessage(data: unknown): data is NetworkStatusMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === MSG_NETWORK_STATUS &&
    typeof (data as { online?: unknown }).online === 'boolean'
  );
}

let registered = false;

/**
 * Registers /sw.js in production builds (a no-op in development and where service workers are
 * not supported) and reports the network status from the worker's messages (the browser's
 * offline/online events feed the online store directly: startOnlineTracking).
 */
export function registerServiceWorker(options: RegisterServiceWorkerOptions): void {
  // Once per page, even if a component calls it twice (React StrictMode runs effects twice).
  if (typeof window === 'undefined' || registered) return;
  registered = true;

  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;

  const container = navigator.serviceWorker;
  // Listen on the container, not on the Workbox instance: a worker of an older version that
  // still controls the page reports too.
  container.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (isNetworkStatusMessage(event.data)) options.onNetworkStatus(event.data.online, event.data.at);
  });
  container.startMessages();
  // Leaving the app (another app, the home screen, a locked phone): the worker keeps /home's
  // page as it is now for the next start (sw/kept-first-screen.ts).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') container.controller?.postMessage({ type: MSG_KEEP_FIRST_SCREEN });
  });

  void registerWorker(options);
}

/**
 * Registers the worker through workbox-window and offers an update when a new version waits
 * while an older one controls the page (also one that waited from before this page; the first
 * install activates at once). Applying it asks the waiting worker to take over and reloads once
 * it does.
 */
async function registerWorker(options: RegisterServiceWorkerOptions): Promise<void> {
  let workbox: Workbox;
  let registration: ServiceWorkerRegistration | undefined;
  try {
    const { Workbox } = await import('workbox-window');
    workbox = new Workbox('/sw.js');
    workbox.addEventListener('waiting', () =>
      options.onUpdateReady(() => {
        workbox.addEventListener('controlling', () => window.location.reload());
        announceAppUpdate();
        workbox.messageSkipWaiting();
      }),
    );
    registration = await workbox.register();
  } catch (error) {
    console.warn('Service worker registration failed', error);
    return;
  }
  if (!registration) return;
  askNetworkStatus(options);
  setInterval(() => void workbox.update().catch(() => undefined), UPDATE_CHECK_INTERVAL_MS);
}

/** A page opened while the worker already knows the network is down learns it at once. */
function askNetworkStatus(options: RegisterServiceWorkerOptions): void {
  const controller = navigator.serviceWorker.controller;
  if (!controller) return;
  const channel = new MessageChannel();
  channel.port1.onmessage = (event: MessageEvent<unknown>) => {
    if (isNetworkStatusMessage(event.data) && !event.data.online) options.onNetworkStatus(false, event.data.at);
    channel.port1.close();
  };
  controller.postMessage({ type: MSG_GET_NETWORK_STATUS }, [channel.port2]);
}
