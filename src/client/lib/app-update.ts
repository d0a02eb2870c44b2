/**
 * The page applies a new version (platform/pwa.ts): what holds a request open (the live stream,
 * lib/live-stream.ts) ends it and opens none, as the new service worker takes over only once the
 * page has none left open. Told on the window, and kept for code that loads afterwards.
 */
export const APP_UPDATE_EVENT = 'app-update';

let applying = false;

export function announceAppUpdate(): void {
  applying = true;
  window.dispatchEvent(new Event(APP_UPDATE_EVENT));
}

export const appUpdateApplying = (): boolean => applying;
