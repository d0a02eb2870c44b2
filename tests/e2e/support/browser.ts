/**
 * Debian's Chromium driven by playwright-core, in a persistent profile (an incognito context
 * fails installability and treats service workers differently). Each launch gets a fresh
 * profile folder, removed on close.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, errors, type BrowserContext, type Page } from 'playwright-core';
import { lookBeforeClosing, watchBrowser } from './last-look.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags of every Chromium the tests and the bench start (the bench's Lighthouse runs too). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Lighthouse's phone (a Moto G Power): what the server takes for a phone, rendering the mobile first screen. */
export const PHONE_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';

/** How long an action or a wait for an element may take before the test is called stuck. */
const ACTION_TIMEOUT_MS = 60_000;

export interface LaunchOptions {
  viewport?: { width: number; height: number };
  userAgent?: string;
  /** A touch screen (navigator.maxTouchPoints > 0, touch events). */
  hasTouch?: boolean;
  /** A profile folder to open again (a browser restart); it is kept on close, the caller removes it. */
  profileDir?: string;
  /** Starts with the network cut (tabs the browser restores from the last session load offline too). */
  offline?: boolean;
  /**
   * No network for anything the browser runs, from its first moment: `offline` reaches a service
   * worker only once it is attached, and one woken at start (a Background Sync the last session
   * registered) would run before. Every request goes to a proxy that is not there. Implies
   * `offline`; there is no going online again in this browser.
   */
  noNetwork?: boolean;
  /** No service worker: every request reaches page.route (the worker would answer from its precache). */
  blockServiceWorkers?: boolean;
  /** The reader's time zone (an IANA name); the machine's without it. */
  timezoneId?: string;
}

export interface LaunchedBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const keepProfile = options.profileDir !== undefined;
  const profileDir = options.profileDir ?? (await mkdtemp(join(tmpdir(), 'feed-e2e-chromium-')));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      viewport: options.viewport ?? { width: 390, height: 844 },
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      ...(options.offline || options.noNetwork ? { offline: true } : {}),
      ...(options.noNetwork ? { proxy: { server: 'http://127.0.0.1:9', bypass: '<-loopback>' } } : {}),
      ...(options.hasTouch ? { hasTouch: true } : {}),
      ...(options.blockServiceWorkers ? { serviceWorkers: 'block' as const } : {}),
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      args: CHROMIUM_ARGS,
    });
  } catch (error) {
    if (!keepProfile) await rm(profileDir, { recursive: true, force: true });
    throw error;
  }
  // Longer than any wait takes on a busy machine: a wait ends when its thing happens, or fails here.
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  watchBrowser(context);
  // Every page of the context, the ones opened later too (a tab after a crash, a second window).
  context.on('page', waitForAppOnNavigation);
  const page = context.pages()[0] ?? (await context.newPage());
  waitForAppOnNavigation(page);
  let closed = false;
  return {
    context,
    page,
    async close() {
      if (closed) return;
      closed = true;
      await lookBeforeClosing(context);
      await context.close().catch(() => undefined);
      if (!keepProfile) await rm(profileDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** Longer than the app takes to start on a busy machine. */
const APP_START_TIMEOUT_MS = 60_000;

/**
 * Until the app has started, a page the server painted (the first screen of /home, a post, a
 * user centre: src/server/http/first-screen.ts) shows its HTML only, whose buttons do nothing yet; its script
 * runs after the first paint, after the load event that page.goto waits for. Resolves once the
 * app is up: it hydrated that page, or rendered its own in its place (at once for any other page).
 */
export async function waitForApp(page: Page): Promise<void> {
  try {
    await page.waitForFunction(() => document.querySelector('#root > .first-screen--mobile, #root > .first-screen--pc') === null, undefined, {
      timeout: APP_START_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof errors.TimeoutError) throw new Error(`the app did not start within ${APP_START_TIMEOUT_MS} ms on ${page.url()}`);
    // A page that navigated on meanwhile (its document gone) is not this one.
  }
}

/**
 * page.goto and page.reload wait for the app, as they did while the load event came after it
 * (waitUntil: 'commit' still returns with the server's page as it is, for tests of that page).
 */
const waitingForApp = new WeakSet<Page>();

function waitForAppOnNavigation(page: Page): void {
  if (waitingForApp.has(page)) return;
  waitingForApp.add(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== 'commit') await waitForApp(page);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (options?.waitUntil !== 'commit') await waitForApp(page);
    return response;
  };
}

export interface InstallabilityError {
  errorId: string;
  errorArguments: Array<{ name: string; value: string }>;
}

/** What Chromium says stands between the page and "Install app"; [] means installable. */
export async function installabilityErrors(page: Page): Promise<InstallabilityError[]> {
  const session = await page.context().newCDPSession(page);
  try {
    const result = (await session.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: InstallabilityError[];
    };
    return result.installabilityErrors;
  } finally {
    await session.detach().catch(() => undefined);
  }
}
