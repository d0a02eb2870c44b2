/**
 * The client's hydration of the first screen the server rendered (first-screen.server.tsx).
 * React adopts the server's nodes instead of building the page again: no second
 * commit of a whole page, no relayout and repaint of it, while the reader is already reading.
 *
 * Hydration needs the client's first render to write what the server wrote, so it renders by
 * what the server rendered by: its layout, its clock (the readable times) and the stores'
 * first states (zustand's server snapshot, which hydration reads), the header holding its place
 * (lib/first-screen-render.ts). What this device knows beyond (another time zone, a closed AI
 * widget, no network, the session) shows in the renders that follow. Where the trees still differ
 * (a kept page whose feed gives way to a newer one), React renders that part itself
 * (onRecoverableError), as it does without a server render.
 */
import { CHINA_UTC_OFFSET_MINUTES } from '#shared/timestamp.ts';
import { FIRST_SCREEN_CLASS, FIRST_SCREEN_HYDRATED_CLASS, RENDERED_AT_ATTRIBUTE } from '#shared/first-screen.ts';
import { readFirstScreenBy } from '../format/time.ts';
import { renderFirstScreenLayout, useLayoutStore } from '../platform/layout-store.ts';

/**
 * The server's first screen inside `root`, ready to be hydrated, or null when there is none or
 * it is not the one the viewport shows (a desktop browser in a narrow window gets the mobile
 * layout's render, which layout.css hides: the client renders its own).
 */
export function hydratableFirstScreen(root: HTMLElement): HTMLElement | null {
  const screen = root.firstElementChild;
  if (!(screen instanceof HTMLElement) || root.childElementCount !== 1) return null;
  const isMobile = screen.className === FIRST_SCREEN_CLASS.mobile ? true : screen.className === FIRST_SCREEN_CLASS.pc ? false : null;
  const renderedAt = Number(screen.getAttribute(RENDERED_AT_ATTRIBUTE));
  if (isMobile === null || isMobile !== useLayoutStore.getState().isMobile || !Number.isFinite(renderedAt)) return null;
  readFirstScreenBy({ now: renderedAt, utcOffsetMinutes: CHINA_UTC_OFFSET_MINUTES });
  renderFirstScreenLayout(isMobile);
  return screen;
}

/**
 * Once the app is up in the element it hydrated: shown in either layout from then on (the app
 * inside follows the viewport's width), and no longer the server's page only (the tests'
 * waitForApp, tests/e2e/support/browser.ts).
 */
export function firstScreenHydrated(screen: HTMLElement): void {
  screen.className = FIRST_SCREEN_HYDRATED_CLASS;
}

/** A hydration that met a difference: React rendered that part itself. Not an error the reader sees. */
export function onHydrationMismatch(error: unknown): void {
  if (import.meta.env.DEV) console.warn('The first screen was rendered again, not hydrated:', error);
}
