import type { AppRouter } from '../router.tsx';

/** The longest the wait for the first screen lasts (a render that failed must not keep the outbox from starting). */
export const FIRST_SCREEN_WAIT_MS = 3000;

/** Runs `run` once the first screen is rendered and painted (at the latest after FIRST_SCREEN_WAIT_MS). */
export function afterFirstScreen(router: Pick<AppRouter, 'subscribe'>, run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    stop();
    clearTimeout(timer);
    run();
  };
  const stop = router.subscribe('onRendered', () => requestAnimationFrame(() => setTimeout(once, 0)));
  const timer = setTimeout(once, FIRST_SCREEN_WAIT_MS);
}
