/**
 * The real built app for end-to-end tests: `node dist/server/main.js` (built beforehand by
 * `npm run build`) on a free port with a PGlite data folder of its own, a copy of the demo's
 * folder the run made once (global-setup.ts), or, when asked, with thousands of posts more,
 * bulk-loaded before the server starts.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from '../../support/ports.ts';
import { api, type Endpoint, type EndpointInput, type EndpointOutput } from '../../../src/shared/api.ts';
import type { Envelope } from '../../../src/shared/envelope.ts';
import type { Post } from '../../../src/shared/schemas.ts';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_ENTRY = join(PROJECT_ROOT, 'dist/server/main.js');
const CLIENT_INDEX = join(PROJECT_ROOT, 'dist/client/index.html');
const READY_PATH = '/serv/v1/user/auth';
const START_TIMEOUT_MS = 240_000;
/**
 * Budgets no first screen's read or render reaches on a busy machine: whether a page comes with
 * its first screen never depends on the machine's speed (tests/api/first-screen.test.ts tests
 * the budgets themselves).
 */
const AMPLE_FIRST_SCREEN_BUDGETS = { FIRST_SCREEN_READ_WAIT_MS: '600000', FIRST_SCREEN_RENDER_LIMIT_MS: '600000' };
const STOP_TIMEOUT_MS = 10_000;

export interface StartAppOptions {
  /**
   * Extra environment for the server (PORT and DATA_DIR are set unless given here). A DATA_DIR
   * given empty gets the demo's data as a fresh one does; one with data in it is opened as it is.
   */
  env?: Record<string, string>;
  /**
   * The seeded data folder copied into an empty DATA_DIR; by default the run's (global-setup.ts).
   * null: none, the server seeds the empty folder itself at its first start.
   */
  dataTemplate?: string | null;
  /**
   * Posts bulk-loaded (tests/bench/bulk-load.ts, newer than the demo's) into the fresh data folder
   * on top of the demo data, before the server starts: a feed far longer than the demo's 520
   * posts.
   */
  bulkPosts?: number;
}

export interface RunningApp {
  url: string;
  port: number;
  dataDir: string;
  /** Everything the server wrote to stdout and stderr so far. */
  logs: () => string;
  stop(): Promise<void>;
}


/** Throws unless `npm run build` has made the server and the client. */
export function assertBuilt(): void {
  if (!existsSync(SERVER_ENTRY) || !existsSync(CLIENT_INDEX)) {
    throw new Error(
      `The built app is missing (${existsSync(SERVER_ENTRY) ? CLIENT_INDEX : SERVER_ENTRY}). ` +
        'Run `npm run build` before the e2e tests.',
    );
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The e2e run's seeded PGlite data folder (global-setup.ts): never opened, only copied. */
    e2eDataTemplate: string;
    /** The run's server for the files that only read (global-setup.ts). */
    e2eSharedApp: { url: string; port: number; dataDir: string };
  }
}

/**
 * The environment of the server the files that only read share (global-setup.ts): two files at a
 * time load pages from the one loopback address, past the per-address limit's default.
 */
export const SHARED_APP_ENV = { REQUEST_LIMIT_PER_ADDRESS: '1000000' };

/** The run's seeded folder, or undefined outside a vitest worker (a script, the bench). */
function runDataTemplate(): string | undefined {
  try {
    return inject('e2eDataTemplate');
  } catch {
    return undefined;
  }
}

const isEmptyFolder = async (dir: string) => (await readdir(dir).catch(() => [])).length === 0;

export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  assertBuilt();
  const port = Number(options.env?.PORT ?? (await freePort()));
  const dataDir = options.env?.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'feed-e2e-data-')));
  const ownsDataDir = options.env?.DATA_DIR === undefined;
  const template = options.dataTemplate === undefined ? runDataTemplate() : options.dataTemplate;
  try {
    if (template && (await isEmptyFolder(dataDir))) await cp(template, dataDir, { recursive: true });
    if (options.bulkPosts) await loadBulkPosts(dataDir, options.bulkPosts);
  } catch (error) {
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
  const url = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = { ...process.env };
  // Hermetic by default: the embedded database in the fresh folder, whatever the shell has.
  delete env.DATABASE_URL;
  delete env.CLIENT_DIR;
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...AMPLE_FIRST_SCREEN_BUDGETS }, options.env);

  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit(code ?? (signal ? -1 : null)));
  });
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const removeDataDir = async () => {
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
  };
  const stop = async () => {
    if (!hasExited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await removeDataDir();
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (hasExited) {
      await removeDataDir();
      throw new Error(`The server exited before it answered (exit ${child.exitCode}).\n${output}`);
    }
    try {
      const response = await fetch(`${url}${READY_PATH}?t=${Date.now()}`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      break; // Any HTTP answer: the server listens and its routes are up.
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer ${READY_PATH} within ${START_TIMEOUT_MS} ms.\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  return { url, port, dataDir, logs: () => output, stop };
}

const DAY_MS = 86_400_000;

/**
 * The demo's "now" in e2e runs: the latest instant before now at the published demo's time of day
 * (`published`, seed.ts's SEED_NOW: 12:00 in Beijing). Seeded as of then, the demo holds the same
 * posts in the same order at whatever hour the suite runs, each a whole number of days later: a
 * demo ending at the run's own hour held other posts on /home's first page (no poll at 09:06).
 */
export function demoNow(published: Date, now = Date.now()): Date {
  return new Date(published.getTime() + Math.floor((now - published.getTime()) / DAY_MS) * DAY_MS);
}

/**
 * Seeds an empty data folder with the demo as of demoNow (the server, opening it, finds it seeded).
 */
export async function seedDemo(dataDir: string): Promise<void> {
  const [{ openDatabase }, { seedIfEmpty, SEED_NOW }, { migrationsFolder }] = await Promise.all([
    import('../../../src/server/db/client.ts'),
    import('../../../src/server/seed/seed.ts'),
    import('../../support/db.ts'),
  ]);
  const database = await openDatabase({ dataDir, migrationsFolder });
  try {
    await seedIfEmpty(database.db, { now: demoNow(SEED_NOW) });
  } finally {
    await database.close();
  }
}

/**
 * Seeds the demo data (as of demoNow, as seedDemo does) unless the folder has it,
 * then bulk-loads `posts` more, in the data folder the server will open. Loaded on demand: most
 * e2e files never need it.
 */
async function loadBulkPosts(dataDir: string, posts: number): Promise<void> {
  const [{ openDatabase }, { seedIfEmpty, SEED_NOW }, { bulkLoad }, { migrationsFolder, sqlRunnerOf }] = await Promise.all([
    import('../../../src/server/db/client.ts'),
    import('../../../src/server/seed/seed.ts'),
    import('../../bench/bulk-load.ts'),
    import('../../support/db.ts'),
  ]);
  const database = await openDatabase({ dataDir, migrationsFolder });
  try {
    await seedIfEmpty(database.db, { now: demoNow(SEED_NOW) });
    await bulkLoad(sqlRunnerOf(database), { posts });
  } finally {
    await database.close();
  }
}

/**
 * How many requests to `path` the server has answered so far, read from its request log: what a
 * page sent on its own (a beacon, a batch on a timer) has been handled once this count grows.
 */
export function answeredRequests(app: RunningApp, path: string): number {
  const urls = new Map<string, string>();
  let answered = 0;
  for (const line of app.logs().split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { reqId?: string; req?: { url?: string }; res?: { statusCode?: number } };
    if (!entry.reqId) continue;
    if (entry.req?.url !== undefined) urls.set(entry.reqId, entry.req.url);
    else if (entry.res?.statusCode !== undefined && urls.get(entry.reqId)?.split('?')[0] === path) answered++;
  }
  return answered;
}

/** Calls a contract endpoint of the running server as a client would; fails on an error envelope. */
export async function callApi<E extends Endpoint>(app: RunningApp, endpoint: E, input: EndpointInput<E>): Promise<EndpointOutput<E>> {
  const response = await fetch(`${app.url}${endpoint.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const envelope = (await response.json()) as Envelope<EndpointOutput<E>>;
  if (envelope.code !== 0) throw new Error(`${endpoint.path} answered ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/**
 * Every post of the 全部 feed, newest first: a test looking for a kind of post (one with code,
 * with comments) looks through them all rather than count on a page holding one.
 */
export const allFeedPosts = (app: RunningApp): Promise<Post[]> => feedPosts(app, Number.POSITIVE_INFINITY);

/** The newest `count` posts of the 全部 feed (fewer where it ends), paged as the client pages it. */
export async function feedPosts(app: RunningApp, count: number): Promise<Post[]> {
  const posts: Post[] = [];
  let index = 0;
  while (posts.length < count) {
    const page = await callApi(app, api.channelPosts, { tab: 'all', index, size: 50 });
    posts.push(...page.list);
    if (!page.page.more) break;
    index = page.page.next_index;
  }
  return posts.slice(0, count);
}
