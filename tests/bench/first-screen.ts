/**
 * The first-screen groups of `npm run bench`, each measured beside a
 * bare React 19 + Vite anchor built from tests/bench/anchors in the same run:
 *
 * - lighthouse: Lighthouse 12 (node API, its default mobile settings: simulated throttling) on
 *   our /home, a post detail and a user centre, and on the bare anchor, interleaved, round after
 *   round, each run in a Chromium of its own with a fresh profile; medians of the four category
 *   scores and of LCP, FCP, TBT and TTI, LCP over the anchor's, and every audit of our pages (and of
 *   the anchor) that does not pass. Then the first-visit JS of /home, counted as
 *   tests/e2e/bundle-size.test.ts counts it and by the same goal: at most FIRST_VISIT_JS_OVER_STACK × the stack alone's.
 * - offline: an offline reload of /home in Chromium (playwright-core, a fresh persistent
 *   profile per round): visited online until the service worker controls the page and the feed
 *   is persisted, then the network cut and the page reloaded; the time from navigation start to
 *   the frame that shows the first post, beside the anchor with its minimal service worker.
 *
 * Our server is the build (`npm run serve`'s command, run.ts's startServer) on a PGlite folder
 * seeded with the demo community; each anchor has a tiny server of its own (anchors/serve.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse, { type Result as LighthouseResult } from 'lighthouse';
import type { Page } from 'playwright-core';
import { api } from '../../src/shared/api.ts';
import type { Envelope } from '../../src/shared/envelope.ts';
import type { Paged, Post } from '../../src/shared/schemas.ts';
import { KEPT_FIRST_SCREEN_CACHE_NAME } from '../../sw/constants.ts';
import { PROJECT_ROOT } from '../e2e/support/app.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser, PHONE_USER_AGENT } from '../e2e/support/browser.ts';
import { FIRST_VISIT_JS_OVER_STACK, firstVisitScripts, totalBytes } from '../e2e/support/first-visit.ts';
import { ANCHOR_POSTS_PATH, buildAnchors, startAnchorServer, type AnchorServer } from './anchors/anchors.ts';
import {
  LIGHTHOUSE_CATEGORIES,
  lighthouseFigures,
  summarizeLighthouse,
  type LighthouseCategory,
  type LighthouseFigures,
  type LighthouseSummary,
} from './lighthouse-figures.ts';
import { median, medianRatio } from './stats.ts';

/** What the groups need from run.ts. */
export interface FirstScreenBench {
  say(line?: string): void;
  /** Starts the built server (`npm run serve`'s command) with this environment, in a process of its own. */
  startServer(env: Record<string, string>, serverRoot?: string): Promise<{ url: string; stop(): Promise<void> }>;
  lighthouseRounds: number;
  /** Another checkout, built, whose pages the lighthouse group measures by turns with ours (BENCH_AGAINST). */
  against?: { root: string; commit: string } | undefined;
  offlineRounds: number;
}

/** The first screen's goals, measured in the same run as their anchors. */
const GOALS = {
  /** Every Lighthouse category score. */
  score: 100,
  /** Our LCP over the bare page's, per page. */
  lcpRatio: 1.2,
  /** First-visit JS of /home over the stack alone's (gzip-9, as bundle-size.test.ts counts and budgets it). */
  firstVisitOverStack: FIRST_VISIT_JS_OVER_STACK,
  /** Offline start over the anchor's with its service worker. */
  offlineRatio: 1.5,
};

/** What the offline start waits for: the first post of a feed (ours and the anchors' alike). */
const FIRST_POST_SELECTOR = 'main article';
const CATEGORY_TITLES: Record<LighthouseCategory, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const spread = (values: number[]) => `${fixed(median(values))} (${fixed(Math.min(...values))}-${fixed(Math.max(...values))})`;
const packageVersion = (name: string) =>
  (JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

// ---------------------------------------------------------------------------------------------
// The servers

interface Running {
  url: string;
  stop(): Promise<void>;
}

const isBuilt = (root: string) => existsSync(join(root, 'dist/client/index.html')) && existsSync(join(root, 'dist/server/main.js'));

/** Our build (or the one of the checkout at `root`) on a fresh PGlite folder seeded with the demo community. */
async function startDemoServer(bench: FirstScreenBench, root = PROJECT_ROOT): Promise<Running> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-first-screen-'));
  try {
    const server = await bench.startServer({ DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO_DATA: 'true' }, root);
    return {
      url: server.url,
      stop: async () => {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** A group's section: its title, then `measure` with our build running, or a note that there is no build. */
async function withOurBuild(bench: FirstScreenBench, title: string, measure: (ours: Running) => Promise<void>): Promise<void> {
  bench.say(`## ${title}`);
  bench.say();
  if (!isBuilt(PROJECT_ROOT)) {
    bench.say('- skipped: run `npm run build` first');
    bench.say();
    return;
  }
  const ours = await startDemoServer(bench);
  try {
    await measure(ours);
  } finally {
    await ours.stop();
  }
}

/** The newest posts of /home's feed (tab all), read from our server as the page reads them. */
async function newestPosts(url: string): Promise<Post[]> {
  const response = await fetch(`${url}${api.channelPosts.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tab: 'all', size: 10 }),
  });
  const envelope = (await response.json()) as Envelope<Paged<Post>>;
  if (envelope.code !== 0 || envelope.data.list.length === 0) throw new Error(`no posts in the demo feed: ${JSON.stringify(envelope)}`);
  return envelope.data.list;
}

/** The anchors built into a temporary folder, each served by a process of its own. */
async function withAnchors<T>(use: (servers: { bare: AnchorServer; offline: AnchorServer; stack: AnchorServer }) => Promise<T>): Promise<T> {
  const outDir = await mkdtemp(join(tmpdir(), 'bench-anchors-'));
  const started: AnchorServer[] = [];
  const serve = async (dir: string) => {
    const server = await startAnchorServer(dir);
    started.push(server);
    return server;
  };
  try {
    const built = await buildAnchors(outDir);
    return await use({ bare: await serve(built.bare), offline: await serve(built.offline), stack: await serve(built.stack) });
  } finally {
    for (const server of started) await server.stop();
    await rm(outDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

/** Flags Lighthouse's own launcher (chrome-launcher) adds, so background work does not disturb the trace. */
const LIGHTHOUSE_CHROMIUM_ARGS = [
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-default-apps',
  '--disable-extensions',
  '--mute-audio',
  '--no-default-browser-check',
];

/**
 * Debian's Chromium with a DevTools port for Lighthouse, in a fresh profile removed on close.
 * It runs in a process group of its own, so closing it ends its helper processes too.
 */
async function launchChromiumWithDevtools(): Promise<{ port: number; close(): Promise<void> }> {
  const profileDir = await mkdtemp(join(tmpdir(), 'bench-lighthouse-chromium-'));
  const child = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, ...LIGHTHOUSE_CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profileDir}`, 'about:blank'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // Already gone.
      }
    };
    if (child.exitCode === null && child.signalCode === null) {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(profileDir, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools port in 60 s:\n${err}`)), 60_000);
      child.once('exit', (code) => reject(new Error(`Chromium exited with ${code}:\n${err}`)));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        err += chunk;
        const found = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
        if (found) {
          clearTimeout(timer);
          resolve(Number(found[1]));
        }
      });
    });
    return { port, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** One Lighthouse run of url in a Chromium of its own: the default config (mobile, simulated throttling). */
async function runLighthouse(url: string): Promise<LighthouseResult> {
  const chromium = await launchChromiumWithDevtools();
  try {
    const result = await lighthouse(url, {
      port: chromium.port,
      hostname: '127.0.0.1',
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...LIGHTHOUSE_CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    await chromium.close();
  }
}

/** Lighthouse's version, the browser and the settings it ran with, as its result states them. */
function aboutLighthouse(result: LighthouseResult): string {
  const { formFactor, throttlingMethod, throttling, screenEmulation } = result.configSettings;
  const browser = /Chrome\/[\d.]+/.exec(result.environment.hostUserAgent)?.[0] ?? 'Chromium';
  return `Lighthouse ${result.lighthouseVersion} (node API, default config), ${browser} (Debian's Chromium, headless, a fresh profile per run): ${formFactor}, ${screenEmulation.width} × ${screenEmulation.height} at ${screenEmulation.deviceScaleFactor}×, throttling ${throttlingMethod} (RTT ${throttling.rttMs} ms, ${throttling.throughputKbps} kbit/s, CPU ÷ ${throttling.cpuSlowdownMultiplier}); this machine's benchmark index ${fixed(result.environment.benchmarkIndex)}`;
}

interface LighthousePage {
  name: string;
  url: string;
  anchor?: boolean;
  /** A page of the BENCH_AGAINST build: measured, not judged by the goals. */
  against?: boolean;
}

function reportLighthouse(bench: FirstScreenBench, pages: LighthousePage[], figures: Map<LighthousePage, LighthouseFigures[]>): void {
  const { say } = bench;
  const anchorPage = pages.find((page) => page.anchor)!;
  const anchorRuns = figures.get(anchorPage)!;
  const summaries = new Map<LighthousePage, LighthouseSummary>(pages.map((page) => [page, summarizeLighthouse(figures.get(page)!)]));
  const score = (value: number | null) => (value === null ? 'error' : fixed(value));
  say(
    `| page | ${LIGHTHOUSE_CATEGORIES.map((category) => CATEGORY_TITLES[category]).join(' | ')} | LCP ms median (min-max) | FCP ms | TBT ms | TTI ms | LCP × bare | goal |`,
  );
  say(`|---|${LIGHTHOUSE_CATEGORIES.map(() => '---|').join('')}---|---|---|---|---|---|`);
  for (const page of pages) {
    const runs = figures.get(page)!;
    const summary = summaries.get(page)!;
    const ratio = medianRatio(
      runs.map((run) => run.lcpMs),
      anchorRuns.map((run) => run.lcpMs),
    );
    const goals: string[] = [];
    if (!page.anchor && !page.against) {
      const below = LIGHTHOUSE_CATEGORIES.filter((category) => summary.scores[category] !== GOALS.score);
      goals.push(`all ${GOALS.score}: ${below.length ? `**not met** (${below.map((category) => CATEGORY_TITLES[category]).join(', ')})` : 'met'}`);
      goals.push(`LCP ≤ ${GOALS.lcpRatio} × bare: ${ratio <= GOALS.lcpRatio ? 'met' : '**not met**'}`);
    }
    say(
      `| ${page.anchor ? `*anchor:* ${page.name}` : page.name} | ${LIGHTHOUSE_CATEGORIES.map((category) => score(summary.scores[category])).join(' | ')} | ${spread(runs.map((run) => run.lcpMs))} | ${fixed(summary.fcpMs)} | ${fixed(summary.tbtMs)} | ${fixed(summary.ttiMs)} | ${page.anchor ? '1' : fixed(ratio, 2)} | ${goals.join('; ')} |`,
    );
  }
  say();
  say(
    `Audits that did not pass (score below 1, or could not run), in how many of the ${bench.lighthouseRounds} rounds; weight 0: not counted in the category's score.`,
  );
  say();
  for (const page of pages) {
    const { failing } = summaries.get(page)!;
    say(`${page.anchor ? `*Anchor:* ${page.name}` : `**${page.name}**`}${failing.length ? '' : ': none'}`);
    say();
    if (failing.length === 0) continue;
    say('| category | audit | weight | failed in | median score | value |');
    say('|---|---|---|---|---|---|');
    for (const audit of failing) {
      say(
        `| ${CATEGORY_TITLES[audit.category]} | \`${audit.id}\` ${audit.title.replace(/\|/g, '\\|')} | ${audit.weight} | ${audit.failedRuns}/${figures.get(page)!.length} | ${audit.medianScore === null ? '-' : fixed(audit.medianScore, 2)} | ${[...new Set(audit.displayValues.filter(Boolean))].join(' · ').replace(/\|/g, '\\|')} |`,
      );
    }
    say();
  }
  const warnings = [...new Set([...summaries.values()].flatMap((summary) => summary.warnings))];
  if (warnings.length) {
    say("Lighthouse's warnings:");
    for (const warning of warnings) say(`- ${warning.replace(/\s+/g, ' ')}`);
    say();
  }
}

export function lighthouseGroup(bench: FirstScreenBench): Promise<void> {
  const { say } = bench;
  return withOurBuild(bench, `First screen: Lighthouse mobile, median of ${bench.lighthouseRounds}, beside a bare React page`, async (ours) => {
    if (bench.against && !isBuilt(bench.against.root)) throw new Error(`BENCH_AGAINST=${bench.against.root}: no build there (npm run build)`);
    const against = bench.against ? await startDemoServer(bench, bench.against.root) : undefined;
    try {
      await withAnchors(async (anchors) => {
        const [newest] = await newestPosts(ours.url);
        const pagesOf = (server: Running, suffix = '', isAgainst = false): LighthousePage[] => [
          { name: `/home${suffix}`, url: `${server.url}/home`, against: isAgainst },
          { name: `/message/detail/${newest!.id}${suffix}`, url: `${server.url}/message/detail/${newest!.id}`, against: isAgainst },
          { name: `/usercenter/${newest!.user.uid}${suffix}`, url: `${server.url}/usercenter/${newest!.user.uid}`, against: isAgainst },
        ];
        const pages: LighthousePage[] = [
          ...pagesOf(ours),
          ...(against ? pagesOf(against, ` (*against* ${bench.against!.commit})`, true) : []),
          { name: 'bare React 19 + Vite page, 10 posts from a JSON', url: `${anchors.bare.url}/`, anchor: true },
        ];
        const figures = new Map<LighthousePage, LighthouseFigures[]>(pages.map((page) => [page, []]));
        let about = '';
        for (let round = 0; round < bench.lighthouseRounds; round++) {
          // Each round starts one page later, so no page always follows the same neighbour.
          for (const page of pages.map((_, i) => pages[(i + round) % pages.length]!)) {
            const result = await runLighthouse(page.url);
            about ||= aboutLighthouse(result);
            const run = lighthouseFigures(result);
            figures.get(page)!.push(run);
            console.log(
              `  lighthouse round ${round + 1}/${bench.lighthouseRounds} ${page.name.padEnd(40)} ${LIGHTHOUSE_CATEGORIES.map((category) => run.scores[category] ?? 'error').join('/')}  LCP ${fixed(run.lcpMs)} ms  FCP ${fixed(run.fcpMs)} ms  TBT ${fixed(run.tbtMs)} ms  TTI ${fixed(run.ttiMs)} ms`,
            );
          }
        }
        say(
          `${about}; categories performance, accessibility, best practices and SEO. Ours: the build on the demo community (PGlite). The anchor: tests/bench/anchors, built by the bench with Vite ${packageVersion('vite')} and React ${packageVersion('react')}, served by a Fastify of its own compressed as ours. Pages interleaved, ${bench.lighthouseRounds} rounds; LCP × bare is the median of each round's ratio. Goals (issue 11): ${GOALS.score} in every category, LCP at most ${GOALS.lcpRatio} × the bare page's.`,
        );
        say();
        if (against) say(`The rows marked *against* are the build of ${bench.against!.root} (commit ${bench.against!.commit}), measured by turns with ours in the same rounds (BENCH_AGAINST); its pages are those of our build's demo data (the same seed).`);
        if (against) say();
        reportLighthouse(bench, pages, figures);
        await reportFirstVisitJs(bench, ours, anchors);
      });
    } finally {
      await against?.stop();
    }
  });
}

/**
 * The first-visit JS of our /home at both layouts, beside the stack alone (anchors/stack: the
 * libraries our first screen starts, and nothing of the app) and the bare React page, each
 * counted as a visit loads it.
 */
async function reportFirstVisitJs(bench: FirstScreenBench, ours: Running, anchors: { bare: AnchorServer; stack: AnchorServer }): Promise<void> {
  const { say } = bench;
  const mobile = { width: 375, height: 740 };
  const oursOnMobile = await firstVisitScripts(ours.url, mobile);
  const stackAlone = await firstVisitScripts(anchors.stack.url, mobile, anchors.stack.dir);
  const rows: [string, Map<string, number>][] = [
    ['ours, mobile 375 px', oursOnMobile],
    ['ours, PC 1280 px', await firstVisitScripts(ours.url, { width: 1280, height: 900 })],
    ['*anchor:* the stack alone (React 19, TanStack Router and Query, the persister with idb-keyval, zustand, dayjs), mobile', stackAlone],
    ['*anchor:* the bare React 19 page, mobile', await firstVisitScripts(anchors.bare.url, mobile, anchors.bare.dir)],
  ];
  say(`First-visit JS of /home (every script a fresh profile loads, gzip level 9, as \`tests/e2e/bundle-size.test.ts\` counts it), beside the anchors built in this run:`);
  say();
  const stackBytes = totalBytes(stackAlone);
  say(`| page | gzip-9 bytes | KiB | files | × the stack alone | goal ≤ ${GOALS.firstVisitOverStack} × the stack alone |`);
  say('|---|---|---|---|---|---|');
  for (const [name, sizes] of rows) {
    const total = totalBytes(sizes);
    const goal = name.startsWith('ours') ? (total / stackBytes <= GOALS.firstVisitOverStack ? 'met' : '**not met**') : '';
    say(`| ${name} | ${total.toLocaleString('en')} | ${fixed(total / 1024, 1)} | ${sizes.size} | ${fixed(total / stackBytes, 3)} | ${goal} |`);
  }
  say();
  say(
    `Over the stack alone, the goal leaves ${Math.floor(stackBytes * (GOALS.firstVisitOverStack - 1)).toLocaleString('en')} B for the app; ours takes ${(totalBytes(oursOnMobile) - stackBytes).toLocaleString('en')} B.`,
  );
  say();
}

// ---------------------------------------------------------------------------------------------
// Offline start

interface FirstPostProbe {
  /**
   * performance.now() (ms since navigation start) when the first post was in the DOM, and when
   * the frame that renders it was done (the first task after that frame's rendering).
   */
  firstPost?: { inDomMs: number; paintedMs: number };
}

/*
 * The two functions below run in the page (Playwright sends their source). They define no named
 * function inside: the bench runs under tsx, whose esbuild wraps those in __name(), which the
 * page does not have.
 */

/**
 * Runs in every document before its own scripts: notes when the first post appears (visible), and
 * when it is painted: a message posted from the next animation frame is handled once that frame's style,
 * layout and paint are done, so a page that is costly to lay out pays for it here.
 */
function probeFirstPost(selector: string): void {
  const observer = new MutationObserver(() => {
    // Shown, not only there: a page may hold a layout's copy that its width hides.
    if (!Array.from(document.querySelectorAll(selector)).some((element) => element.checkVisibility())) return;
    observer.disconnect();
    const inDomMs = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => ((window as unknown as FirstPostProbe).firstPost = { inDomMs, paintedMs: performance.now() });
      channel.port2.postMessage(null);
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * Whether some IndexedDB database of the page holds one of the texts (anywhere in a stored
 * value): the feed is persisted, wherever and however the client keeps it.
 */
async function indexedDbHolds(texts: string[]): Promise<boolean> {
  for (const { name } of await indexedDB.databases()) {
    if (!name) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open(name);
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    try {
      for (const store of Array.from(db.objectStoreNames)) {
        const values = await new Promise<unknown[]>((resolve, reject) => {
          const reading = db.transaction(store).objectStore(store).getAll();
          reading.onsuccess = () => resolve(reading.result);
          reading.onerror = () => reject(reading.error);
        });
        const stored = JSON.stringify(values);
        if (texts.some((text) => stored.includes(text))) return true;
      }
    } finally {
      db.close();
    }
  }
  return false;
}

interface OfflineTarget {
  name: string;
  url: string;
  anchor?: boolean;
  /** Resolves once what an offline reload needs is stored (beyond the worker's control). */
  stored(page: Page): Promise<void>;
}

const OFFLINE_WAIT_MS = 30_000;

interface OfflineStart {
  /** ms from navigation start until the frame that shows the first post is done. */
  firstPostMs: number;
  /** The browser's first contentful paint of the same load, beside it as a check. */
  fcpMs: number;
}

/** One offline start in a fresh profile. */
async function offlineStart(target: OfflineTarget): Promise<OfflineStart> {
  // A phone, where the app is opened on the way: the server's first screen is the mobile one.
  const browser = await launchBrowser({ userAgent: PHONE_USER_AGENT });
  try {
    const { context, page } = browser;
    await context.addInitScript(probeFirstPost, FIRST_POST_SELECTOR);
    await page.goto(target.url);
    await page.locator(FIRST_POST_SELECTOR).first().waitFor({ timeout: OFFLINE_WAIT_MS });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: OFFLINE_WAIT_MS });
    await target.stored(page);
    await context.setOffline(true);
    await page.reload({ waitUntil: 'commit' });
    const handle = await page.waitForFunction(() => (window as unknown as FirstPostProbe).firstPost, undefined, { timeout: OFFLINE_WAIT_MS });
    const shown = (await handle.jsonValue()) as NonNullable<FirstPostProbe['firstPost']>;
    const fcp = await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime, undefined, {
      timeout: OFFLINE_WAIT_MS,
    });
    return { firstPostMs: shown.paintedMs, fcpMs: (await fcp.jsonValue()) as number };
  } finally {
    await browser.close();
  }
}

export function offlineGroup(bench: FirstScreenBench): Promise<void> {
  const { say } = bench;
  return withOurBuild(bench, `Offline start: an offline reload of /home until the first post shows, median of ${bench.offlineRounds}`, async (ours) => {
    // Texts of the first page of /home's feed, as a stored copy of it holds them (JSON-escaped).
    const feedTexts = (await newestPosts(ours.url))
      .map((post) => JSON.stringify(post.content).slice(1, 41))
      .filter((text) => text.length >= 10);
    await withAnchors(async (anchors) => {
      const targets: OfflineTarget[] = [
        {
          name: '/home',
          url: `${ours.url}/home`,
          // The feed persisted in IndexedDB, and /home's page kept by the worker (sw/kept-first-screen.ts).
          stored: async (page) => {
            const deadline = Date.now() + OFFLINE_WAIT_MS;
            while (!(await page.evaluate(indexedDbHolds, feedTexts))) {
              if (Date.now() > deadline) throw new Error(`/home's feed was not persisted to IndexedDB in ${OFFLINE_WAIT_MS} ms`);
              await page.waitForTimeout(200);
            }
            const keptPage = (name: string) => caches.open(name).then((cache) => cache.match('/home')).then(Boolean);
            while (!(await page.evaluate(keptPage, KEPT_FIRST_SCREEN_CACHE_NAME))) {
              if (Date.now() > deadline) throw new Error(`the worker kept no copy of /home in ${OFFLINE_WAIT_MS} ms`);
              await page.waitForTimeout(200);
            }
          },
        },
        {
          name: 'bare React 19 + Vite page with a minimal service worker',
          url: `${anchors.offline.url}/`,
          anchor: true,
          // The worker activates only once its precache is complete: check the JSON is there.
          stored: async (page) => {
            const cached = await page.evaluate(async (path) => Boolean(await caches.match(path)), ANCHOR_POSTS_PATH);
            if (!cached) throw new Error(`the anchor's worker controls the page without ${ANCHOR_POSTS_PATH} in its cache`);
          },
        },
      ];
      const starts = new Map<OfflineTarget, OfflineStart[]>(targets.map((target) => [target, []]));
      for (let round = 0; round < bench.offlineRounds; round++) {
        for (const target of round % 2 ? [...targets].reverse() : targets) {
          const start = await offlineStart(target);
          starts.get(target)!.push(start);
          console.log(
            `  offline round ${round + 1}/${bench.offlineRounds} ${target.name.padEnd(56)} first post at ${fixed(start.firstPostMs)} ms, FCP ${fixed(start.fcpMs)} ms`,
          );
        }
      }
      const firstPost = (target: OfflineTarget) => starts.get(target)!.map((start) => start.firstPostMs);
      const anchor = targets.find((target) => target.anchor)!;
      say(
        `Chromium through playwright-core ${packageVersion('playwright-core')} (a 390 × 844 page, no throttling), a fresh persistent profile per round: the page visited online until its service worker controls it and what it shows is stored (ours: the feed in IndexedDB; the anchor: its precache), then \`context.setOffline(true)\` and a reload; the time is \`performance.now()\` once the frame that renders the first \`${FIRST_POST_SELECTOR}\` is done (a message posted from that animation frame). Interleaved, ${bench.offlineRounds} rounds; the ratio is the median of each round's. Goal (issue 11): at most ${GOALS.offlineRatio} × the anchor.`,
      );
      say();
      say('| page | first post shown, ms median (min-max) | × anchor | goal | FCP ms median |');
      say('|---|---|---|---|---|');
      for (const target of targets) {
        const ratio = medianRatio(firstPost(target), firstPost(anchor));
        say(
          `| ${target.anchor ? `*anchor:* ${target.name}` : target.name} | ${spread(firstPost(target))} | ${target.anchor ? '1' : fixed(ratio, 2)} | ${target.anchor ? '' : `≤ ${GOALS.offlineRatio}: ${ratio <= GOALS.offlineRatio ? 'met' : '**not met**'}`} | ${fixed(median(starts.get(target)!.map((start) => start.fcpMs)))} |`,
        );
      }
      say();
    });
  });
}
