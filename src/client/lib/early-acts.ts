/**
 * The app's side of what the reader did before it started (lib/early-acts-catcher.ts keeps it):
 * the taps are answered once the app has taken the page over, each once; a field's early words or
 * choice become its component's state as it takes the field over.
 */
import { useEffect } from 'react';
import type {} from './early-acts-catcher.ts';

/** Stops keeping what the reader does (React hears the page from here on) and gives the taps kept. */
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

/**
 * What was typed (a text) or chosen (the values checked) in the server-rendered field named `name`
 * before the app started, handed to `adopt` once as the component mounts: it stays, counts and
 * enables what it should. Nothing when there was none, or no name (a field the server never renders).
 */
export function useEarlyValue(name: string | undefined, adopt: (value: string | string[]) => void): void {
  useEffect(() => {
    const value = name === undefined ? undefined : window.earlyActs?.takeValue(name);
    if (value !== undefined && value.length > 0) adopt(value);
    // Once, as the field is taken over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name]);
}
