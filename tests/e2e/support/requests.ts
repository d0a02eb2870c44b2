/** A page's requests watched, for tests that check what a page did not send. */
import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { OTHER_PATHS } from '#shared/endpoints.ts';

export interface WatchedRequests {
  /** Every request the page made since the watch began (its service worker's answers too). */
  readonly made: Request[];
  /**
   * Once none is on its way and none began over two frames: what the page set off (a chunk it
   * loads, then the call that chunk makes) has been sent and answered, or was never sent.
   */
  settled(): Promise<void>;
  stop(): void;
}

const twoFrames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

export function watchRequests(page: Page): WatchedRequests {
  const made: Request[] = [];
  const onTheirWay = new Set<Request>();
  const began = (request: Request) => {
    made.push(request);
    // The live stream is held open by design: never "on its way" to an answer.
    if (new URL(request.url()).pathname !== OTHER_PATHS.live) onTheirWay.add(request);
  };
  const ended = (request: Request) => onTheirWay.delete(request);
  page.on('request', began);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    made,
    async settled() {
      for (;;) {
        await expect.poll(() => onTheirWay.size).toBe(0);
        const count = made.length;
        await twoFrames(page);
        if (onTheirWay.size === 0 && made.length === count) return;
      }
    },
    stop() {
      page.off('request', began);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}
