/** Waiting for a page's scroll to come to rest, by the page's own frames rather than a sleep. */
import type { Page } from 'playwright-core';

/**
 * The window's scroll once it has stayed put for three frames: a smooth scroll has ended, and
 * what moves it after a render (a windowed list measuring its cards, scroll anchoring) has
 * happened, or none began.
 */
export const settledScrollY = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let last = window.scrollY;
        let still = 0;
        const check = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 3) resolve(last);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );

/**
 * Turns the mouse wheel (over `at`, or where the mouse is) and gives the scroll once the page has
 * had the wheel event and has come to rest: the scroll the wheel made, or the place it kept.
 */
export async function wheelAndSettle(page: Page, deltaY: number, at?: { x: number; y: number }): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { wheeled?: Promise<void> };
    w.wheeled = new Promise<void>((resolve) => addEventListener('wheel', () => resolve(), { once: true, capture: true, passive: true }));
  });
  if (at) await page.mouse.move(at.x, at.y);
  await page.mouse.wheel(0, deltaY);
  await page.evaluate(() => (window as unknown as { wheeled?: Promise<void> }).wheeled);
  return settledScrollY(page);
}
