/**
 * The manifest's screenshots (public/screenshots, named in vite.config.ts's manifest) from the
 * build as it is: `npm run build`, then `npm run screenshots`. It builds nothing: it starts the
 * built server (dist/) on a fresh embedded database, which seeds the demo community ending now,
 * opens /home in Debian's Chromium at both form factors, logged out, the AI promo closed as a
 * reader closes it, in the light scheme, and writes both PNGs over the old ones (and into the
 * build at hand, which serves them at once). Chinese needs a CJK font on the machine (Debian:
 * fonts-noto-cjk); without one it stops rather than draw boxes.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { AI_WIDGET_HIDDEN_KEY } from '../../src/client/app/layout/ai-widget-store.ts';
import { assertBuilt, PROJECT_ROOT, startApp } from './support/app.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_USER_AGENT, waitForApp } from './support/browser.ts';

export const SCREENSHOTS_DIR = join(PROJECT_ROOT, 'public/screenshots');
/** Where the build copied public/screenshots: the server serves the new files without a rebuild. */
const BUILT_SCREENSHOTS_DIR = join(PROJECT_ROOT, 'dist/client/screenshots');

/** Each screenshot the manifest names: the window it is taken in, and its pixels (window x scale). */
export const SCREENSHOTS = [
  { file: 'feed-narrow.png', formFactor: 'narrow', viewport: { width: 360, height: 640 }, deviceScaleFactor: 2, phone: true },
  { file: 'feed-wide.png', formFactor: 'wide', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, phone: false },
] as const;

/** Stops unless a font draws Chinese: Chromium would draw every character as a box. */
function assertCjkFont(): void {
  let families = '';
  try {
    families = execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' }).trim();
  } catch {
    // No fontconfig: no font found either.
  }
  if (!families) {
    throw new Error('No font on this machine draws Chinese, so the screenshots would show boxes. Install one (Debian: apt-get install -y fonts-noto-cjk) and run again.');
  }
}

/** /home as a reader first sees it: the feed and every picture in the window shown, fonts loaded, nothing moving. */
async function settle(page: Page): Promise<void> {
  await waitForApp(page);
  await page.locator('main article').first().waitFor();
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() =>
    [...document.images]
      .filter((img) => {
        const box = img.getBoundingClientRect();
        return box.width > 0 && box.bottom > 0 && box.top < window.innerHeight;
      })
      .every((img) => img.complete && img.naturalWidth > 0),
  );
  // Two frames: what the last change laid out is painted.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

export async function takeScreenshots(): Promise<string[]> {
  assertBuilt();
  assertCjkFont();
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await mkdir(BUILT_SCREENSHOTS_DIR, { recursive: true });
  const app = await startApp({ dataTemplate: null });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const written: string[] = [];
  try {
    for (const shot of SCREENSHOTS) {
      const context = await browser.newContext({
        viewport: shot.viewport,
        deviceScaleFactor: shot.deviceScaleFactor,
        colorScheme: 'light',
        reducedMotion: 'reduce',
        locale: 'zh-CN',
        ...(shot.phone ? { userAgent: PHONE_USER_AGENT, isMobile: true, hasTouch: true } : {}),
      });
      try {
        await context.addInitScript((key) => localStorage.setItem(key, '1'), AI_WIDGET_HIDDEN_KEY);
        const page = await context.newPage();
        await page.goto(`${app.url}/home`);
        await settle(page);
        const path = join(SCREENSHOTS_DIR, shot.file);
        await page.screenshot({ path, type: 'png' });
        await copyFile(path, join(BUILT_SCREENSHOTS_DIR, shot.file));
        written.push(path);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await app.stop();
  }
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const path of await takeScreenshots()) console.log(`wrote ${path}`);
}
