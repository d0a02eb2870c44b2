/**
 * Layout mode: mobile below MOBILE_BREAKPOINT_PX (860) of viewport width, PC from 860 up; mobile is
 * assumed until the viewport is measured.
 */
import { create } from 'zustand';
import { MOBILE_BREAKPOINT_PX } from '#shared/constants.ts';

/** Matches viewports narrower than the breakpoint (859.98 so fractional widths below 860 match). */
export const MOBILE_MEDIA_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

export interface LayoutState {
  isMobile: boolean;
  setMobile(isMobile: boolean): void;
}

export const useLayoutStore = create<LayoutState>()((set) => ({
  isMobile: true,
  setMobile: (isMobile) => set((state) => (state.isMobile === isMobile ? state : { isMobile })),
}));

/**
 * The layout of a first screen the server renders (app/first-screen.server.tsx, each render in
 * its turn) and of the client's hydration of it (app/main.tsx). React reads a store's initial
 * state there (zustand's server snapshot), not its state.
 */
export function renderFirstScreenLayout(isMobile: boolean): void {
  useLayoutStore.getInitialState().isMobile = isMobile;
  useLayoutStore.setState({ isMobile });
}

/**
 * Sets isMobile from the media query now and on every change. Returns the unsubscribe.
 * Without matchMedia (non-browser) the default (mobile) stays and this does nothing.
 */
export function startLayoutTracking(): () => void {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(MOBILE_MEDIA_QUERY);
  const update = (): void => useLayoutStore.getState().setMobile(query.matches);
  update();
  if (typeof query.addEventListener === 'function') {
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }
  // Safari before 14 only has the deprecated listener API.
  query.addListener(update);
  return () => query.removeListener(update);
}
