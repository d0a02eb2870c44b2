/**
 * A Chromium with a fresh profile set up as Lighthouse's mobile run sets up its phone (412 × 823
 * at 1.75×, touch, its user agent), for the bench's scripts that load pages in it themselves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_USER_AGENT } from '../e2e/support/browser.ts';

export interface LighthousePhone {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  close(): Promise<void>;
}

export async function launchLighthousePhone(): Promise<LighthousePhone> {
  const profileDir = await mkdtemp(join(tmpdir(), 'bench-phone-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    userAgent: PHONE_USER_AGENT,
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    cdp: await context.newCDPSession(page),
    async close() {
      await context.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
