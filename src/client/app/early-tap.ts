/**
 * A tap on the server's first screen before the app has started. The app's code arrives after the
 * first paint (public/start-after-first-paint.js), and until it runs a card or a button on the
 * page does nothing: the reader taps a post and stays where they are. That script keeps the last
 * tap; once the app has hydrated the page, the same element gets the click again and does what
 * it does (opens the post, likes it). Only when the app took over that very element: where it
 * rendered its own page instead (another layout, a newer feed), the tap may have meant something
 * else, and it is dropped.
 */

declare global {
  interface Window {
    /** Set by public/start-after-first-paint.js: stops keeping taps, and gives the last one. */
    takeEarlyTap?: () => Element | undefined;
  }
}

/** Stops keeping taps (React hears them from here on) and gives the last tap's element. */
export function takeEarlyTap(): Element | undefined {
  const take = window.takeEarlyTap;
  delete window.takeEarlyTap;
  return take?.();
}

/** The tap again, on its element, if the app's page is still made of it. */
export function answerEarlyTap(target: Element | undefined): void {
  if (!target?.isConnected) return;
  target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window }));
}
