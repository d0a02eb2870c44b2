import { afterEach, describe, expect, it, vi } from 'vitest';
import { MOBILE_MEDIA_QUERY, startLayoutTracking, useLayoutStore } from '../../src/client/platform/layout-store.ts';
import { reportWorkerNetworkStatus, startOnlineTracking, useOnlineStore } from '../../src/client/platform/online-store.ts';

/** A controllable MediaQueryList. */
function fakeMedia(initial: boolean) {
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const media = {
    matches: initial,
    media: '',
    addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
    set(matches: boolean) {
      media.matches = matches;
      for (const listener of listeners) listener({ matches } as MediaQueryListEvent);
    },
    listeners,
  };
  return media;
}

describe('useLayoutStore', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useLayoutStore.setState({ isMobile: true });
  });

  it('assumes mobile by default', () => {
    expect(useLayoutStore.getState().isMobile).toBe(true);
  });

  it('uses a max-width query just under 860 px', () => {
    expect(MOBILE_MEDIA_QUERY).toBe('(max-width: 859.98px)');
  });

  it('follows the media query until unsubscribed', () => {
    const media = fakeMedia(false);
    const matchMedia = vi.fn(() => media);
    vi.stubGlobal('matchMedia', matchMedia);
    const stop = startLayoutTracking();
    expect(matchMedia).toHaveBeenCalledWith('(max-width: 859.98px)');
    expect(useLayoutStore.getState().isMobile).toBe(false);
    media.set(true);
    expect(useLayoutStore.getState().isMobile).toBe(true);
    stop();
    expect(media.listeners.size).toBe(0);
    media.set(false);
    expect(useLayoutStore.getState().isMobile).toBe(true);
  });

  it('does nothing without matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    const stop = startLayoutTracking();
    expect(useLayoutStore.getState().isMobile).toBe(true);
    stop();
  });
});

describe('useOnlineStore', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    useOnlineStore.setState({ online: true });
  });

  it('can be set directly (service worker reports)', () => {
    useOnlineStore.getState().setOnline(false);
    expect(useOnlineStore.getState().online).toBe(false);
    useOnlineStore.getState().setOnline(true);
    expect(useOnlineStore.getState().online).toBe(true);
  });

  it("takes the service worker's word, except an online one while the browser says it has no network", () => {
    reportWorkerNetworkStatus(false);
    expect(useOnlineStore.getState().online).toBe(false);
    reportWorkerNetworkStatus(true);
    expect(useOnlineStore.getState().online).toBe(true);
    // A server unreachable while the browser thought it was online: the worker says so.
    reportWorkerNetworkStatus(false);
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    reportWorkerNetworkStatus(true);
    expect(useOnlineStore.getState().online).toBe(false);
    onLine.mockRestore();
  });

  it('takes no old news from the service worker: a failure from before the page opened or before the network came back', () => {
    const stop = startOnlineTracking();
    useOnlineStore.getState().setOnline(true);
    // The worker still remembers a failure from before this page.
    reportWorkerNetworkStatus(false, Date.now() - 60_000);
    expect(useOnlineStore.getState().online).toBe(true);
    // A failure now counts.
    reportWorkerNetworkStatus(false, Date.now());
    expect(useOnlineStore.getState().online).toBe(false);
    // The network comes back; a failure told late, from before that, does not take it away again.
    const before = Date.now() - 1;
    window.dispatchEvent(new Event('online'));
    reportWorkerNetworkStatus(false, before);
    expect(useOnlineStore.getState().online).toBe(true);
    stop();
  });

  it('follows the window online/offline events until unsubscribed', () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const stop = startOnlineTracking();
    expect(useOnlineStore.getState().online).toBe(false);
    window.dispatchEvent(new Event('online'));
    expect(useOnlineStore.getState().online).toBe(true);
    window.dispatchEvent(new Event('offline'));
    expect(useOnlineStore.getState().online).toBe(false);
    stop();
    window.dispatchEvent(new Event('online'));
    expect(useOnlineStore.getState().online).toBe(false);
    onLine.mockRestore();
  });
});
