/**
 * What an e2e file does around its tests, written once: the app for the file (or a describe
 * block), or the run's shared one for a file that only reads; and a browser for a block or a
 * test: Chromium launched, its native dialogs watched, and, when asked, a user logged in through
 * the header's popup with the code the server logs.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { startApp, type RunningApp, type StartAppOptions } from './app.ts';
import { launchBrowser, type LaunchedBrowser, type LaunchOptions } from './browser.ts';
import { logIn } from './session.ts';

/** Longer than a server takes to start on a busy machine (startApp gives up before). */
const APP_HOOK_TIMEOUT_MS = 300_000;

/** Something that exists once the block's beforeAll has run. */
function whenReady<T>(what: string, get: () => T | undefined): () => T {
  return () => {
    const value = get();
    if (value === undefined) throw new Error(`${what} exists only inside the tests of its block, once its beforeAll has run`);
    return value;
  };
}

/**
 * The app started before the block's tests and stopped after them. Read it inside tests and
 * hooks: the object stands for the server that runs then.
 */
export function useApp(options: StartAppOptions = {}): RunningApp {
  let running: RunningApp | undefined;
  beforeAll(async () => {
    running = await startApp(options);
  }, APP_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await running?.stop();
  });
  const app = whenReady('useApp’s app', () => running);
  return {
    get url() {
      return app().url;
    },
    get port() {
      return app().port;
    },
    get dataDir() {
      return app().dataDir;
    },
    logs: () => app().logs(),
    stop: () => app().stop(),
  };
}

/**
 * The run's server for files that neither write nor log in (started by global-setup.ts, stopped
 * after the last file): a file that reads only needs no server of its own. Its log stays with
 * the run (a login code would be in it), and only the run stops it.
 */
export function sharedApp(): RunningApp {
  const { url, port, dataDir } = inject('e2eSharedApp');
  const notHere = (what: string) => () => {
    throw new Error(`the shared server's ${what} is the run's: a file that needs it starts its own (useApp)`);
  };
  return { url, port, dataDir, logs: notHere('log'), stop: notHere('stop') };
}

export interface BrowserOptions extends LaunchOptions {
  /** Logs in as this phone through the header's popup, on the page at `at`. */
  logInAs?: string;
  /** The page opened first (default /home when logging in; none otherwise). */
  at?: string;
}

export interface OpenedBrowser extends LaunchedBrowser {
  /** The messages of the native dialogs (alert, confirm, prompt) any page opened; each is dismissed. */
  dialogs: string[];
}

/** Chromium with its dialogs watched, at `at` and logged in when asked. Close it when done. */
export async function openBrowser(app: RunningApp, options: BrowserOptions = {}): Promise<OpenedBrowser> {
  const { logInAs, at, ...launch } = options;
  const browser = await launchBrowser(launch);
  const dialogs: string[] = [];
  browser.context.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  });
  try {
    const path = at ?? (logInAs === undefined ? undefined : '/home');
    if (path !== undefined) await browser.page.goto(`${app.url}${path}`);
    if (logInAs !== undefined) await logIn(app, browser.page, logInAs);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return { ...browser, dialogs };
}

export interface BrowserFixture {
  /** The block's first page (a stand-in until beforeAll has run: use it inside tests and hooks). */
  readonly page: Page;
  readonly context: BrowserContext;
  readonly dialogs: string[];
}

/**
 * A browser for the block's tests: opened (openBrowser) before them, closed after them. Its page
 * may be named where the block is written; it stands for the page that exists once beforeAll ran.
 * `app` may be given as a function, for a file that starts its app in a beforeAll of its own.
 */
export function useBrowser(app: RunningApp | (() => RunningApp), options: BrowserOptions = {}): BrowserFixture {
  let opened: OpenedBrowser | undefined;
  beforeAll(async () => {
    opened = await openBrowser(typeof app === 'function' ? app() : app, options);
  }, APP_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await opened?.close();
  });
  const browser = whenReady('useBrowser’s browser', () => opened);
  const page = new Proxy({} as Page, {
    get(_target, property) {
      const current = browser().page;
      const value: unknown = Reflect.get(current, property, current);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
  return {
    page,
    get context() {
      return browser().context;
    },
    get dialogs() {
      return browser().dialogs;
    },
  };
}

/** A browser (openBrowser) for the length of `use`, closed after it whatever happened. */
export async function withBrowser<T>(app: RunningApp, options: BrowserOptions, use: (browser: OpenedBrowser) => Promise<T>): Promise<T> {
  const browser = await openBrowser(app, options);
  try {
    return await use(browser);
  } finally {
    await browser.close();
  }
}
