import type { AppRouter } from '../router.tsx';

/** The longest the outbox waits for the first screen (a render that failed must not keep it from starting). */
export const FIRST_SCREEN_WAIT_MS = 3000;

export interface FirstScreenSteps {
  /**
   * Once the app's first render is committed and painted: from then on the page is React's, so a
   * tap reaches its handler. Never on a timer: before that commit a hydration still under way can
   * leave a click with no handler, and a page that says it is up must be.
   */
  rendered: () => void;
  /** Then too, or after FIRST_SCREEN_WAIT_MS when no render has come by then, whichever is first. */
  atLatest: () => void;
}

/** Runs each step once, as FirstScreenSteps says. */
export function afterFirstScreen(router: Pick<AppRouter, 'subscribe'>, { rendered, atLatest }: FirstScreenSteps): void {
  let shown = false;
  let late = false;
  const runLate = () => {
    if (late) return;
    late = true;
    clearTimeout(timer);
    atLatest();
  };
  const stop = router.subscribe('onRendered', () =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (shown) return;
        shown = true;
        stop();
        rendered();
        runLate();
      }, 0),
    ),
  );
  const timer = setTimeout(runLate, FIRST_SCREEN_WAIT_MS);
}
