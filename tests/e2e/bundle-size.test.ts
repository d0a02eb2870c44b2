/**
 * The JavaScript of a first visit to /home: every script the page loads in a fresh profile (the
 * entry, and what it loads right after the first screen), gzip level 9, summed over files, at
 * both layouts. Sizes are deterministic, so this budget is a test; how fast they load is a
 * benchmark's business. Needs `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, startApp, type RunningApp } from './support/app.ts';
import { launchBrowser } from './support/browser.ts';

/**
 * 133 KiB (zlib level 9, 1024 bytes to the KB): React, TanStack Router and Query are about 104 KB
 * of it. Issue 6 set 130 KiB; writing posts (issue 8) put 发动态 and the composer's host on the
 * first screen (about 0.6 KB, with a new post's prepend logic moved out to a chunk of its own);
 * the outbox's count (issue 9) and the phones' 发现 sheet and touch targets (issue 10) about
 * 0.5 KB more, dayjs kept (the stack the user chose); issue 12's client resilience (a draft copied
 * at each change, a page whose code failed offering a reload) went 23 B over 132 KiB. Issue 11's
 * first-screen work is to bring it to 110 KB.
 */
const FIRST_VISIT_JS_BUDGET = 133 * 1024;

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

async function firstVisitScripts(viewport: { width: number; height: number }): Promise<Map<string, number>> {
  const browser = await launchBrowser({ viewport });
  try {
    const scripts = new Set<string>();
    browser.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
    });
    await browser.page.goto(`${app.url}/home`, { waitUntil: 'networkidle' });
    await browser.page.locator('main article').first().waitFor();
    // Whatever the page loads once the first screen is up belongs to the visit too.
    await browser.page.waitForLoadState('networkidle');
    const sizes = new Map<string, number>();
    for (const path of scripts) {
      sizes.set(path, gzipSync(readFileSync(join(PROJECT_ROOT, 'dist/client', path)), { level: 9 }).length);
    }
    return sizes;
  } finally {
    await browser.close();
  }
}

describe('first visit to /home', () => {
  it.each([
    ['PC', { width: 1280, height: 900 }],
    ['mobile', { width: 375, height: 740 }],
  ])('loads at most the budget of JavaScript (%s)', async (_layout, viewport) => {
    const sizes = await firstVisitScripts(viewport);
    const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
    console.log(`first visit JS (${_layout}): ${total} bytes gzip-9 in ${sizes.size} files`, Object.fromEntries(sizes));
    // Every page but the feeds, the modals and the composer come later, in chunks of their own.
    expect([...sizes.keys()].some((path) => /message\.lazy|user\.lazy|GalleryView|LoginPanel/.test(path))).toBe(false);
    expect(total).toBeLessThanOrEqual(FIRST_VISIT_JS_BUDGET);
  });
});
