/**
 * The app's side of what the reader did before it started (lib/early-acts-catcher.ts keeps it):
 * the taps are answered once the app has taken the page over, each once. A field's early words or
 * choice become its component's state as it takes the field over (early-value.ts, with the
 * fields' code).
 */
import type {} from './early-acts-catcher.ts';

/** Stops keeping what the reader does (the app has taken the page over) and gives the taps kept. */
export function takeEarlyTaps(): Element[] {
  return window.earlyActs?.takeTaps() ?? [];
}

/**
 * Each tap again, on its element, if the app's page is still made of it. Where the app rendered its
 * own page instead (another layout, a newer feed), the tap may have meant something else, and it is
 * dropped; its pending mark goes either way.
 */
export function answerEarlyTaps(taps: readonly Element[]): void {
  for (const target of taps) {
    target.closest('[data-early-tap]')?.removeAttribute('data-early-tap');
    if (target.isConnected) target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  }
}
