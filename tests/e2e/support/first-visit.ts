/**
 * The JavaScript of a first visit to /home, as tests/e2e/bundle-size.test.ts budgets it and the
 * bench (tests/bench/first-screen.ts) reports it: every script the page loads in a fresh
 * profile (the entry, and what it loads right after the first screen), each file's size at
 * gzip level 9 from dist/client (or from the folder given: the bench counts its anchors alike).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PROJECT_ROOT } from './app.ts';
import { launchBrowser } from './browser.ts';

/**
 * The budget of a first visit to /home: at most this many times what the stack alone runs (React,
 * TanStack Router and Query, the persister and idb-keyval, zustand and dayjs: the floor the
 * user's stack sets), the rest being the app's; the bench README says what was measured.
 */
export const FIRST_VISIT_JS_OVER_STACK = 1.3;

/** gzip-9 bytes of each script a first visit to `${baseUrl}/home` loads, by path, read from the files under clientDir. */
export async function firstVisitScripts(
  baseUrl: string,
  viewport: { width: number; height: number },
  clientDir = join(PROJECT_ROOT, 'dist/client'),
): Promise<Map<string, number>> {
  const browser = await launchBrowser({ viewport });
  try {
    const scripts = new Set<string>();
    browser.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
    });
    await browser.page.goto(`${baseUrl}/home`, { waitUntil: 'networkidle' });
    await browser.page.locator('main article').first().waitFor();
    // Whatever the page loads once the first screen is up belongs to the visit too.
    await browser.page.waitForLoadState('networkidle');
    const sizes = new Map<string, number>();
    for (const path of scripts) {
      sizes.set(path, gzipSync(readFileSync(join(clientDir, path)), { level: 9 }).length);
    }
    return sizes;
  } finally {
    await browser.close();
  }
}

/** The sum of the sizes. */
export const totalBytes = (sizes: Map<string, number>): number => [...sizes.values()].reduce((sum, size) => sum + size, 0);
