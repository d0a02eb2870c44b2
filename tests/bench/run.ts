/**
 * Benchmarks (not tests): `npm run build && npm run bench`. They print figures and assert
 * nothing: these machines are shared and noisy, so every throughput figure stands beside its
 * anchors, measured in the same run, interleaved, round after round; the ratios are what count.
 *
 *   npm run bench                              every group
 *   npm run bench -- postgres pglite           some groups: postgres | logged-in | search | excerpts | live | pglite | stall | writes | mixed
 *                                                | write-floor | seed | bundle | startup | lighthouse | offline
 *   npm run bench -- --only=lighthouse,offline the same, as a list (or BENCH_STAGES=lighthouse,offline)
 *
 * The feed groups start the server with the anchors beside its calls (anchored-server.ts, bundled
 * as the built server is) as a process of its own, and drive it with autocannon from another
 * process (load.ts):
 * - postgres: a PostgreSQL of its own (Debian's binaries, as the tests start one), or the
 *   DATABASE_URL given, bulk-loaded with BENCH_POSTS posts (default 1,000,000; bulk-load.ts)
 *   and BENCH_NOTICES notices of the demo user (default 1,000,000; notices-load.ts);
 * - logged-in: the feeds a logged-in reader opens (tab all, tab follow, one channel, a topic's
 *   posts) on such a PostgreSQL, with a server process of its own and the same anchors;
 * - pglite: an embedded PGlite data folder bulk-loaded with BENCH_PGLITE_POSTS (default 100,000);
 * - writes: likes/add + likes/cancel, comment/add and post/add on PostgreSQL, each beside its raw
 *   anchor (server-anchors.ts); mixed: the same writes at 5 connections alone and beside 45 reading;
 *   write-floor: the same writes without HTTP (write-floor.ts, a process of its own on the app's
 *   pool): the service path as the routes call it beside the raw anchor statement, and beside that
 *   statement with the exactly-once key and the notice the decided guarantees add (the least they cost),
 *   and for a post that with its search document too (search/ finds a new post at once).
 * Settings: BENCH_ROUNDS (5), BENCH_SECONDS per run (5), BENCH_CONNECTIONS (50), BENCH_CASES (a
 * regular expression: only the cases whose name matches, beside the anchors).
 *
 * The first-screen groups (first-screen.ts) measure the built client in Chromium beside bare React
 * anchors built from tests/bench/anchors: lighthouse (Lighthouse 12 mobile on /home, a post detail
 * and a user centre, BENCH_LIGHTHOUSE_ROUNDS rounds, default 3, and the first-visit JS of /home)
 * and offline (an offline reload of /home, BENCH_OFFLINE_ROUNDS rounds, default 5).
 * BENCH_AGAINST=<another checkout, built> runs that build's three pages in the lighthouse group's
 * rounds too, by turns with ours: two builds compared in the same minutes, on the same machine
 * load (`git worktree add ../before main && cd ../before && npm ci && npm run build`).
 *
 * Writes a markdown report (machine, versions, date, figures) outside the repository, to
 * $TMPDIR/community-feed-bench/<date>.md. To keep it, `npm run bench -- --keep` (or BENCH_KEEP=1)
 * also writes each group's part to tests/bench/results/<group>.md, replacing that group's last
 * kept report: the repository holds the latest figures of each group, no history.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { api } from '../../src/shared/api.ts';
import { POST_MAX_LENGTH } from '../../src/shared/constants.ts';
import { TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import { loadConfig, projectRoot } from '../../src/server/config.ts';
import { openDatabase, type Db } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema.ts';
import { seedDemoData } from '../../src/server/seed/seed.ts';
import { postExcerpter } from '../../src/server/services/search.ts';
import { hashToken } from '../../src/server/services/sessions.ts';
import { startPostgres } from '../support/db.ts';
import { atLength, ordinaryText, worstTexts } from '../support/worst-texts.ts';
import { freePort } from '../support/ports.ts';
import { bulkLoad, type BulkLoadSummary, type SqlRunner } from './bulk-load.ts';
import { bulkLoadNotices } from './notices-load.ts';
import { lighthouseGroup, offlineGroup } from './first-screen.ts';
import type { LoadResult, LoadSpec } from './load.ts';
import type { FloorCase, FloorForm, FloorResult, FloorSpec } from './write-floor.ts';
import { BENCH_ANCHOR_PATHS } from './server-anchors.ts';
import { median, medianRatio } from './stats.ts';

const root = projectRoot();
const config = loadConfig({});
const env = process.env;
const whole = (name: string, fallback: number) => {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number (got ${JSON.stringify(value)})`);
  return Number(value);
};
const settings = {
  posts: whole('BENCH_POSTS', 1_000_000),
  pglitePosts: whole('BENCH_PGLITE_POSTS', 100_000),
  /** Notices of the demo user in the PostgreSQL group (another user has 10). */
  notices: whole('BENCH_NOTICES', 1_000_000),
  rounds: whole('BENCH_ROUNDS', 5),
  seconds: whole('BENCH_SECONDS', 5),
  connections: whole('BENCH_CONNECTIONS', 50),
  lighthouseRounds: whole('BENCH_LIGHTHOUSE_ROUNDS', 3),
  offlineRounds: whole('BENCH_OFFLINE_ROUNDS', 5),
  pageSize: 20,
  /** Another checkout with its build, measured by the lighthouse group beside ours, by turns. */
  against: env.BENCH_AGAINST ? resolve(env.BENCH_AGAINST) : undefined,
  /** Only the cases whose name matches (the anchors always run). */
  cases: env.BENCH_CASES ? new RegExp(env.BENCH_CASES) : undefined,
};
/** Whether each group's part of the report is kept in the repository (tests/bench/results). */
const keep = process.argv.includes('--keep') || env.BENCH_KEEP === '1';
/** The groups asked for: named as arguments, as --only=a,b, or in BENCH_STAGES=a,b; none: all. */
const only = [
  ...process.argv
    .slice(2)
    .filter((arg) => arg !== '--keep')
    .flatMap((arg) => (arg.startsWith('--only=') ? arg.slice('--only='.length).split(',') : [arg])),
  ...(env.BENCH_STAGES ?? '').split(','),
]
  .map((name) => name.trim())
  .filter(Boolean);
const startedAt = new Date();

/** The report, in markdown, built as the groups run. */
const report: string[] = [];
const say = (line = '') => {
  console.log(line);
  report.push(line);
};

const fixed = (value: number, digits = 0) => value.toFixed(digits);
/** The machine's load average (1, 5, 15 minutes): these machines are shared, so the report says how busy it was. */
const loadAverage = () => loadavg().map((value) => fixed(value, 2)).join(', ');
const packageVersion = (name: string) => {
  try {
    return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
};

// ---------------------------------------------------------------------------------------------
// The server under test and the load generator, each a process of its own

interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The npm script `name` of the checkout at `checkout` (this one by default). */
function npmScript(name: string, checkout = root): string {
  const scripts = (JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { scripts: Record<string, string | undefined> }).scripts;
  const script = scripts[name];
  if (script === undefined) throw new Error(`no ${name} script in ${join(checkout, 'package.json')}`);
  return script;
}

/** `npm run serve`'s command in the checkout at `serverRoot`, without its `node`: node's flags and the built server. */
function serveArgs(serverRoot = root): string[] {
  // `exec node ...`: npm's shell hands its process to node (the supervision test); the bench starts node itself.
  const [command, ...args] = npmScript('serve', serverRoot).replace(/^exec\s+/, '').split(/\s+/);
  if (command !== 'node') throw new Error(`unexpected serve script: ${[command, ...args].join(' ')}`);
  return args;
}

/** The built server of the checkout at `serverRoot` (this one by default), in a process of its own. */
function startServer(extraEnv: Record<string, string>, serverRoot = root): Promise<Server> {
  return spawnServer(serveArgs(serverRoot), serverRoot, extraEnv);
}

/**
 * The server with the anchors beside its calls (anchored-server.ts), bundled with `npm run
 * build:server`'s flags and run with `npm run serve`'s, in a process of its own. The bundle sits
 * inside the project, so that projectRoot() finds package.json from it as it does from dist/.
 */
function startAnchoredServer(extraEnv: Record<string, string>): Promise<Server> {
  const [command, entry, ...flags] = npmScript('build:server').split(/\s+/);
  if (command !== 'esbuild' || entry !== 'src/server/main.ts') throw new Error(`unexpected build:server script: ${npmScript('build:server')}`);
  const outfile = join(root, 'node_modules/.cache/bench-anchored-server/main.js');
  const bundleFlags = flags.map((flag) => (flag.startsWith('--outfile=') ? `--outfile=${outfile}` : flag));
  execFileSync(join(root, 'node_modules/.bin/esbuild'), ['tests/bench/anchored-server.ts', ...bundleFlags, '--log-level=warning'], { cwd: root, stdio: 'inherit' });
  return spawnServer([...serveArgs().slice(0, -1), outfile], root, extraEnv);
}

/** node with `args` in `cwd` and the bench's environment (plus `extraEnv`), once the server answers. */
async function spawnServer(args: string[], cwd: string, extraEnv: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'false',
      // The general request limits (-2005 past 1,200 calls a minute per address) would answer
      // most of a load run; the bench measures reads, not the limiter.
      REQUEST_LIMIT_PER_ADDRESS: '1000000000',
      REQUEST_LIMIT_PER_USER: '1000000000',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (performance.now() - started > 120_000) throw new Error('server did not answer in 120 s');
    const up = await fetch(`${url}${api.auth.path}`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** git's answer in the checkout at `cwd` (this one by default), or 'unknown'. */
function git(args: string[], cwd = root): string {
  try {
    return execFileSync('git', args, { cwd }).toString().trim();
  } catch {
    return 'unknown';
  }
}

// CPU time per process from /proc (Linux): robust to noisy neighbours, unlike req/s.
const clockTick = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  } catch {
    return 10;
  }
})();

function procStat(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: state, ppid, ... utime (index 11), stime (index 12).
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU ms used so far by each of the processes. */
function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const fields = procStat(pid);
    if (fields) out.set(pid, (Number(fields[11]) + Number(fields[12])) * clockTick);
  }
  return out;
}

/** A process and its children (PostgreSQL: the postmaster and every backend). */
function processTree(root: number): number[] {
  const pids = [root];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (procStat(Number(entry))?.[1] === String(root)) pids.push(Number(entry));
  }
  return pids;
}

/** CPU ms the processes used between two snapshots (processes born in between count whole). */
const cpuUsedBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/** Runs load.ts in a process of its own and reads its one line of JSON. */
async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const json = JSON.stringify(spec);
  // A command line holds at most some 128 KiB; longer specs (the worst bodies) go in a file.
  const specFile = json.length > 64 * 1024 ? join(await mkdtemp(join(tmpdir(), 'bench-load-')), 'spec.json') : undefined;
  if (specFile) await writeFile(specFile, json);
  try {
    return await loadProcess(specFile ? `@${specFile}` : json);
  } finally {
    if (specFile) await rm(join(specFile, '..'), { recursive: true, force: true });
  }
}

function loadProcess(argument: string): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tests/bench/load.ts'), argument], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as LoadResult);
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Cases, run interleaved round after round

interface Case {
  name: string;
  path: string;
  body: Record<string, unknown>;
  random?: Record<string, [number, number]>;
  headers?: Record<string, string>;
  /** Figures are read against the raw keyset anchor; an anchor itself has none. A feed's own raw read is an anchor read against both. */
  anchor?: 'constant' | 'raw' | 'feed';
  /** The name of the feed anchor this case is also read against (its own raw read), with its goal. */
  against?: { anchor: string; ratioGoal: number };
  /** p99 goal in ms, if any. */
  p99Goal?: number;
  /** Throughput goal as a share of the raw keyset anchor, if any. */
  ratioGoal?: number;
  /** Goal for the raw keyset anchor's CPU per request over this case's, if any. */
  cpuRatioGoal?: number;
}

interface Run extends LoadResult {
  /** CPU ms of the server process during the run. */
  serverCpuMs: number;
  /** CPU ms of the database's processes during the run (PostgreSQL on this machine only). */
  dbCpuMs: number;
}

interface CaseFigures {
  runs: Run[];
  /** Per round: the raw keyset anchor's server + database CPU per request over this case's. */
  cpuRatios: number[];
  /** Per round: this case's req/s over the raw keyset anchor's in the same round. */
  rawRatios: number[];
  constantRatios: number[];
  /** Per round: this case's req/s over its own feed anchor's (Case.against), when it has one. */
  ownRatios: number[];
}

/**
 * Requests of the case, checked before it is measured: every answer a success envelope, and
 * where it pages, some non-empty list among a few draws (a loaded post may rightly have no
 * comments or likes, but a case that only ever reads empty pages measures nothing).
 */
async function checkCase(url: string, item: Case): Promise<void> {
  let sawItems = false;
  for (let draw = 0; draw < 20 && !sawItems; draw++) {
    const body = { ...item.body };
    for (const [field, [min, max]] of Object.entries(item.random ?? {})) body[field] = min + Math.floor(Math.random() * (max - min + 1));
    const response = await fetch(`${url}${item.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...item.headers },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { code: number; data?: { list?: unknown[] } };
    if (json.code !== 0) throw new Error(`${item.name}: ${JSON.stringify(json)} for ${JSON.stringify(body)}`);
    sawItems = !Array.isArray(json.data?.list) || json.data.list.length > 0;
  }
  if (!sawItems) throw new Error(`${item.name}: only empty lists in 20 draws`);
}

/** Server and database CPU per request, in ms. */
const cpuPerRequest = (run: Run) => (run.serverCpuMs + run.dbCpuMs) / Math.max(1, run.requests);

async function runCases(
  title: string,
  server: Server,
  allCases: Case[],
  dbPids: () => number[],
  connections = settings.connections,
): Promise<Map<Case, CaseFigures>> {
  const cases = allCases.filter((item) => item.anchor || !settings.cases || settings.cases.test(item.name));
  const figures = new Map(cases.map((item) => [item, { runs: [], rawRatios: [], constantRatios: [], cpuRatios: [], ownRatios: [] } as CaseFigures]));
  const spec = (item: Case, seconds: number): LoadSpec => ({
    url: `${server.url}${item.path}`,
    body: item.body,
    ...(item.random ? { random: item.random } : {}),
    ...(item.headers ? { headers: item.headers } : {}),
    connections,
    seconds,
  });
  for (const item of cases) {
    await checkCase(server.url, item);
    await runLoad(spec(item, 2)); // warm-up: JIT, prepared statements, caches
  }
  for (let round = 0; round < settings.rounds; round++) {
    // Each round starts one case later, so no case always follows the same neighbour.
    const order = cases.map((_, i) => cases[(i + round) % cases.length]!);
    const inRound = new Map<Case, Run>();
    for (const item of order) {
      const pids = [server.pid, ...dbPids()];
      const before = cpuOf(pids);
      const loaded = await runLoad(spec(item, settings.seconds));
      const after = cpuOf([...pids, ...dbPids()]);
      const serverCpuMs = (after.get(server.pid) ?? 0) - (before.get(server.pid) ?? 0);
      const result: Run = { ...loaded, serverCpuMs, dbCpuMs: cpuUsedBetween(before, after) - serverCpuMs };
      inRound.set(item, result);
      figures.get(item)!.runs.push(result);
      console.log(
        `  ${title} round ${round + 1}/${settings.rounds} ${item.name.padEnd(44)} ${fixed(result.rps).padStart(6)} req/s  p50 ${fixed(result.p50, 1)} ms  p99 ${fixed(result.p99, 1)} ms  cpu ${fixed((result.serverCpuMs / result.requests) * 1000)} + ${fixed((result.dbCpuMs / result.requests) * 1000)} µs/req${result.non2xx + result.errors ? `  ${result.non2xx} non-2xx, ${result.errors} errors` : ''}`,
      );
    }
    const raw = [...inRound].find(([item]) => item.anchor === 'raw')![1];
    const constant = [...inRound].find(([item]) => item.anchor === 'constant')![1].rps;
    for (const [item, result] of inRound) {
      figures.get(item)!.rawRatios.push(result.rps / raw.rps);
      figures.get(item)!.constantRatios.push(result.rps / constant);
      figures.get(item)!.cpuRatios.push(cpuPerRequest(raw) / cpuPerRequest(result));
      const own = item.against && [...inRound].find(([other]) => other.name === item.against!.anchor)?.[1];
      if (own) figures.get(item)!.ownRatios.push(result.rps / own.rps);
    }
  }
  return figures;
}

function reportCases(title: string, figures: Map<Case, CaseFigures>): void {
  // A feed read against its own raw read too (the logged-in group) has a column for that.
  const againstOwn = [...figures.keys()].some((item) => item.against);
  say(
    `| ${title} | req/s median (min-max) | p50 ms | p99 ms | × raw keyset |${againstOwn ? ' × its own raw read |' : ''} × constant | goal | server + db CPU µs/req | CPU × raw | errors |`,
  );
  say(`|---|---|---|---|---|${againstOwn ? '---|' : ''}---|---|---|---|---|`);
  for (const [item, { runs, rawRatios, constantRatios, cpuRatios, ownRatios }] of figures) {
    const rps = runs.map((run) => run.rps);
    const ratio = median(rawRatios);
    const ownRatio = ownRatios.length ? median(ownRatios) : undefined;
    const p99 = median(runs.map((run) => run.p99));
    const goals: string[] = [];
    if (item.ratioGoal !== undefined) goals.push(`≥ ${item.ratioGoal} ${ratio >= item.ratioGoal ? 'met' : '**not met**'}`);
    if (item.against && ownRatio !== undefined) goals.push(`≥ ${item.against.ratioGoal} × its own ${ownRatio >= item.against.ratioGoal ? 'met' : '**not met**'}`);
    if (item.p99Goal !== undefined) goals.push(`p99 ≤ ${item.p99Goal} ms ${p99 <= item.p99Goal ? 'met' : '**not met**'}`);
    if (item.cpuRatioGoal !== undefined) goals.push(`CPU ≥ ${item.cpuRatioGoal} ${median(cpuRatios) >= item.cpuRatioGoal ? 'met' : '**not met**'}`);
    const errors = runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0);
    const own = againstOwn ? ` ${ownRatio === undefined ? '' : fixed(ownRatio, 2)} |` : '';
    say(
      `| ${item.anchor ? `*anchor:* ${item.name}` : item.name} | ${fixed(median(rps))} (${fixed(Math.min(...rps))}-${fixed(Math.max(...rps))}) | ${fixed(median(runs.map((run) => run.p50)), 1)} | ${fixed(p99, 1)} | ${item.anchor === 'raw' ? '1' : fixed(ratio, 2)} |${own} ${item.anchor === 'constant' ? '1' : fixed(median(constantRatios), 2)} | ${goals.join(', ')} | ${fixed(median(runs.map(cpuPerRequest)) * 1000)} | ${item.anchor === 'raw' ? '1' : fixed(median(cpuRatios), 2)} | ${errors} |`,
    );
  }
  say();
}

type PostRange = { firstPostId: number; lastPostId: number; channels: [number, number]; topics: [number, number] };

const loggedInAs = (ticket: string) => ({ cookie: `${TICKET_COOKIE}=${ticket}` });

/** The anchors every feed group measures its cases against, in the same rounds. */
function feedAnchors(range: PostRange): Case[] {
  const size = settings.pageSize;
  return [
    { name: 'constant JSON', path: BENCH_ANCHOR_PATHS.constant, body: {}, anchor: 'constant' },
    { name: `raw keyset query, ${size} posts`, path: BENCH_ANCHOR_PATHS.rawKeyset, body: { size }, random: { index: pageIndexes(range) }, anchor: 'raw' },
  ];
}

/** Keyset bounds of pages within the loaded posts (each a full page). */
const pageIndexes = (range: PostRange): [number, number] => [range.firstPostId + settings.pageSize * 4, range.lastPostId + 1];

/**
 * The feeds a logged-in reader opens: tab all, tab follow, one channel and a topic's posts. With
 * goals (the logged-in group): each read against the raw keyset read and against its own raw read
 * (server-anchors.ts: its page's rows through the index it walks), the same two feeds read by a
 * visitor beside them.
 */
function loggedInFeedCases(range: PostRange, ticket: string, goals: boolean): Case[] {
  const size = settings.pageSize;
  const index = pageIndexes(range);
  const headers = loggedInAs(ticket);
  const goal = (anchor: string, ratioGoal: number) => (goals ? { against: { anchor, ratioGoal } } : {});
  const channel = { channel_id: range.channels, index };
  return [
    ...(goals
      ? [
          { name: 'raw channel read', path: BENCH_ANCHOR_PATHS.rawChannel, body: { size }, random: { of: range.channels, index }, anchor: 'feed' as const },
          { name: 'raw topic read, first page', path: BENCH_ANCHOR_PATHS.rawTopic, body: { size }, random: { of: range.topics }, anchor: 'feed' as const },
          { name: 'raw followed channels read', path: BENCH_ANCHOR_PATHS.rawFollow, body: { size, of: BENCH_USER_ID }, random: { index }, anchor: 'feed' as const },
          // The API's card beside the raw read: what the feeds' goals leave for everything else.
          { name: `cards of tab all's page, no names`, path: BENCH_ANCHOR_PATHS.cardKeyset, body: { size }, random: { index } },
          { name: `channel/posts tab all, visitor`, path: api.channelPosts.path, body: { tab: 'all', size }, random: { index } },
          { name: 'channel/posts one channel, visitor', path: api.channelPosts.path, body: { size }, random: channel, ...goal('raw channel read', 0.9) },
        ]
      : []),
    { name: `channel/posts tab all, logged in`, path: api.channelPosts.path, body: { tab: 'all', size }, random: { index }, headers, ...(goals ? { ratioGoal: 0.9 } : {}) },
    { name: 'channel/posts tab follow, logged in', path: api.channelPosts.path, body: { tab: 'follow', size }, random: { index }, headers, ...goal('raw followed channels read', 0.7) },
    { name: 'channel/posts one channel, logged in', path: api.channelPosts.path, body: { size }, random: channel, headers, ...goal('raw channel read', 0.9) },
    // A topic's first page, as opening it shows: its newest posts.
    { name: 'topic/posts first page, logged in', path: api.topicPosts.path, body: { size }, random: { topic_id: range.topics }, headers, ...goal('raw topic read, first page', 0.7) },
  ];
}

/** The cases of a database holding posts [firstPostId, lastPostId] (bulk-loaded: each has comments or likes alike). */
function feedCases(range: PostRange, ticket: string, goals: boolean, options: { loggedInFeeds: boolean; threads?: { shallow: number; deep: number } }): Case[] {
  const size = settings.pageSize;
  const index = pageIndexes(range);
  const postId: [number, number] = [range.firstPostId, range.lastPostId];
  const loggedIn = loggedInAs(ticket);
  const { threads } = options;
  return [
    ...feedAnchors(range),
    {
      name: `channel/posts tab all, ${size} posts`,
      path: api.channelPosts.path,
      body: { tab: 'all', size },
      random: { index },
      ...(goals ? { ratioGoal: 0.8, p99Goal: 50 } : { ratioGoal: 0.8 }),
    },
    {
      name: `channel/posts one channel, ${size} posts`,
      path: api.channelPosts.path,
      body: { size },
      random: { channel_id: range.channels, index },
    },
    ...(options.loggedInFeeds ? loggedInFeedCases(range, ticket, false).slice(0, 2) : []),
    { name: 'post/detail', path: api.postDetail.path, body: {}, random: { post_id: postId }, ...(goals ? { ratioGoal: 0.8 } : {}) },
    { name: 'post/detail, logged in', path: api.postDetail.path, body: {}, random: { post_id: postId }, headers: loggedIn },
    { name: `comment/list, ${size} comments`, path: api.commentList.path, body: { size }, random: { post_id: postId } },
    ...(threads === undefined
      ? []
      : [
          { name: `comment/list page 1 of ${SHALLOW_THREAD_ROOTS} top-level`, path: api.commentList.path, body: { size, post_id: threads.shallow } },
          { name: `comment/list page 1 of ${DEEP_THREAD_ROOTS.toLocaleString('en')} top-level`, path: api.commentList.path, body: { size, post_id: threads.deep } },
        ]),
    { name: `likes/list, ${size} users`, path: api.likeList.path, body: { size }, random: { post_id: postId } },
  ];
}

/**
 * The first page of a post with many top-level comments must cost what a post's with a page and a
 * bit does (both answer a full page, the same rows): flat with the thread's length.
 */
const SHALLOW_THREAD_ROOTS = 25;
const DEEP_THREAD_ROOTS = 5_000;

/** The post, given at least `roots` top-level comments (made once: a reused database keeps them). */
async function threadPost(runner: SqlRunner, postId: number, roots: number): Promise<number> {
  const { rows } = await runner.query(`select count(*) as n from comments where post_id = ${postId} and root_id is null`);
  const missing = roots - Number((rows[0] as { n: string }).n);
  if (missing > 0) {
    await runner.query(`insert into comments (post_id, user_id, content)
      select ${postId}, 1 + g % 10, '楼中第 ' || g || ' 条评论' from generate_series(1, ${missing}) g`);
    await runner.query(`update posts set comment_count = comment_count + ${missing} where id = ${postId}`);
    await runner.query('analyze comments');
  }
  return postId;
}

/**
 * notice/list's first page and the unread count of a user with settings.notices notices beside one
 * with 10: the first page reads an index range whatever the history, so the two stay alike.
 */
function noticeCases(many: string, few: string): Case[] {
  const size = settings.pageSize;
  const count = settings.notices.toLocaleString('en');
  return [
    { name: `notice/list, ${size} of 10 notices`, path: api.noticeList.path, body: { size }, headers: loggedInAs(few) },
    { name: `notice/list, ${size} of ${count} notices`, path: api.noticeList.path, body: { size }, headers: loggedInAs(many) },
    { name: `notice/list tab follow, ${size} of ${count} notices`, path: api.noticeList.path, body: { size, type: 'follow' }, headers: loggedInAs(many) },
    { name: `notice/unread_count, ${count} notices`, path: api.noticeUnreadCount.path, body: {}, headers: loggedInAs(many) },
  ];
}

/** The demo user, whom the bench's logged-in cases read as (they follow channels and users, and have liked and voted). */
const BENCH_USER_ID = 1;

/** A ticket for the demo user 13800000000 (uid 1, who follows channels and users), or another, written directly. */
async function benchTicket(runner: SqlRunner, userId = BENCH_USER_ID): Promise<string> {
  const ticket = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  await runner.query(
    `insert into tickets (user_id, token_hash, device_id, device_kind, expires_at)
     values (${userId}, '${hashToken(ticket)}', 'bench', 'pc', now() + interval '1 day')`,
  );
  return ticket;
}

/** The PostgreSQL server's main process, when it runs on this machine (its CPU is then measured). */
async function postmasterPid(runner: SqlRunner): Promise<number | undefined> {
  const backend = Number(((await runner.query('select pg_backend_pid() as pid')).rows[0] as { pid: number }).pid);
  const fields = procStat(backend);
  const parent = fields ? Number(fields[1]) : NaN;
  return Number.isInteger(parent) && procStat(parent)?.[0] !== undefined ? parent : undefined;
}

async function rangeOf(runner: SqlRunner, firstPostId: number) {
  const { rows } = await runner.query(
    `select (select max(id) from posts) as last, (select min(id) from channels) as lo, (select max(id) from channels) as hi,
       (select min(topic_id) from post_topics) as topic_lo, (select max(topic_id) from post_topics) as topic_hi`,
  );
  const row = rows[0] as { last: string | number; lo: number; hi: number; topic_lo: number; topic_hi: number };
  return {
    firstPostId,
    lastPostId: Number(row.last),
    channels: [Number(row.lo), Number(row.hi)] as [number, number],
    topics: [Number(row.topic_lo), Number(row.topic_hi)] as [number, number],
  };
}

const stepLogger = (what: string) => (step: string, ms: number) => console.log(`  ${what}: ${step} ${fixed(ms)} ms`);

// ---------------------------------------------------------------------------------------------
// Groups

interface LoadedPostgres {
  url: string;
  runner: SqlRunner;
  range: PostRange;
  /** Its processes, when it runs on this machine (their CPU is then measured). */
  dbPids: () => number[];
  /** `show server_version`, and whether the bench started it (else it is DATABASE_URL's). */
  version: string;
  own: boolean;
  /** The posts it held before, and the bulk load that made them settings.posts (none when they were enough). */
  present: number;
  loaded?: BulkLoadSummary;
}

/**
 * A PostgreSQL holding settings.posts posts for `use`: a server of its own (Debian's binaries,
 * fsync off, `serverSettings`), seeded and bulk-loaded, or DATABASE_URL's (seeded and loaded up
 * to that many when it holds fewer). Every group on PostgreSQL starts here.
 */
async function withLoadedPostgres(
  { serverSettings, loadLabel }: { serverSettings: string[]; loadLabel: string },
  use: (loaded: LoadedPostgres) => Promise<void>,
): Promise<void> {
  const own = env.DATABASE_URL ? undefined : await startPostgres(serverSettings);
  const url = env.DATABASE_URL ?? own!.url;
  try {
    const database = await openDatabase({ databaseUrl: url, migrationsFolder: config.migrationsFolder });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const runner: SqlRunner = client;
      const version = ((await runner.query('show server_version')).rows[0] as { server_version: string }).server_version;
      if ((await runner.query('select 1 from users limit 1')).rows.length === 0) await seedDemoData(database.db);
      await database.close();
      const present = Number(((await runner.query('select count(*) as n from posts')).rows[0] as { n: string }).n);
      const loaded = present >= settings.posts ? undefined : await bulkLoad(runner, { posts: settings.posts - present, onStep: stepLogger(loadLabel) });
      const firstPostId = loaded ? loaded.firstPostId : Number(((await runner.query('select min(id) as id from posts')).rows[0] as { id: string }).id);
      const local = !env.DATABASE_URL || /@(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(url);
      const postmaster = local ? await postmasterPid(runner) : undefined;
      await use({
        url,
        runner,
        range: await rangeOf(runner, firstPostId),
        dbPids: () => (postmaster ? processTree(postmaster) : []),
        version,
        own: own !== undefined,
        present,
        loaded,
      });
    } finally {
      await client.end();
    }
  } finally {
    await own?.stop();
  }
}

/** withLoadedPostgres for the read groups (postgres, logged-in, search, live), its load reported. */
async function withReadPostgres(use: (loaded: LoadedPostgres) => Promise<void>): Promise<void> {
  const serverSettings = ['shared_buffers=1GB', 'max_wal_size=4GB', 'maintenance_work_mem=512MB'];
  await withLoadedPostgres({ serverSettings, loadLabel: 'PostgreSQL load' }, async (loaded) => {
    say(`PostgreSQL ${loaded.version} (${loaded.own ? 'started by the bench: fsync off, shared_buffers 1GB' : 'DATABASE_URL'}).`);
    if (loaded.loaded) {
      const bulk = loaded.loaded;
      say(
        `Bulk load: ${bulk.posts.toLocaleString('en')} posts, ${bulk.comments.toLocaleString('en')} comments, ${bulk.likes.toLocaleString('en')} likes, ${bulk.votes.toLocaleString('en')} polls (${bulk.voteRecords.toLocaleString('en')} votes), ${bulk.users.toLocaleString('en')} users in **${fixed(bulk.ms / 1000, 1)} s**${settings.posts >= 1_000_000 ? ` (goal under 120 s for 1,000,000 posts: ${bulk.ms < 120_000 ? 'met' : '**not met**'})` : ''}.`,
      );
    } else {
      say(`Reused the ${loaded.present.toLocaleString('en')} posts already there.`);
    }
    say();
    await use(loaded);
  });
}

/** The anchored server on `url` for `use`, stopped after. */
async function withAnchoredServer(url: string, use: (server: Server) => Promise<void>): Promise<void> {
  say(`Load average before the runs: ${loadAverage()}.`);
  say();
  const server = await startAnchoredServer({ DATABASE_URL: url });
  try {
    await use(server);
  } finally {
    await server.stop();
  }
}

async function postgresGroup(): Promise<void> {
  say(`## Feed on PostgreSQL, ${settings.posts.toLocaleString('en')} posts, ${settings.connections} connections`);
  say();
  await withReadPostgres(async ({ url, runner, range, dbPids }) => {
    const ticket = await benchTicket(runner);
    const noticeLoad = { posts: [range.firstPostId, range.lastPostId] as [number, number], actors: [2, 40] as [number, number] };
    const started = performance.now();
    const added = await bulkLoadNotices(runner, { ...noticeLoad, userId: 1, count: settings.notices });
    await bulkLoadNotices(runner, { ...noticeLoad, userId: 2, count: 10 });
    say(`Notices: the demo user has ${settings.notices.toLocaleString('en')} (${added.toLocaleString('en')} loaded in ${fixed((performance.now() - started) / 1000, 1)} s), user 2 has 10.`);
    say();
    const fewTicket = await benchTicket(runner, 2);
    const threads = {
      shallow: await threadPost(runner, range.firstPostId + 1, SHALLOW_THREAD_ROOTS),
      deep: await threadPost(runner, range.firstPostId, DEEP_THREAD_ROOTS),
    };
    const cases = [...feedCases(range, ticket, true, { loggedInFeeds: false, threads }), ...noticeCases(ticket, fewTicket)];
    await withAnchoredServer(url, async (server) => reportCases('PostgreSQL', await runCases('PostgreSQL', server, cases, dbPids)));
  });
}

/**
 * The feeds a logged-in reader opens, on PostgreSQL as in `postgres` (a server process of its
 * own), beside the same anchors in the same rounds: the demo user, who follows channels and
 * users and has liked and voted.
 */
async function loggedInGroup(): Promise<void> {
  say(`## Logged-in feeds on PostgreSQL, ${settings.posts.toLocaleString('en')} posts, ${settings.connections} connections`);
  say();
  await withReadPostgres(async ({ url, runner, range, dbPids }) => {
    const cases = [...feedAnchors(range), ...loggedInFeedCases(range, await benchTicket(runner), true)];
    await withAnchoredServer(url, async (server) => reportCases('PostgreSQL, logged in', await runCases('logged-in', server, cases, dbPids)));
  });
}

async function pgliteGroup(): Promise<void> {
  say(`## Feed on PGlite, ${settings.pglitePosts.toLocaleString('en')} posts, ${settings.connections} connections`);
  say();
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-pglite-'));
  let server: Server | undefined;
  try {
    const client = await PGlite.create({ dataDir });
    let range: Awaited<ReturnType<typeof rangeOf>>;
    let ticket: string;
    try {
      const db = drizzlePglite(client, { schema });
      await migratePglite(db, { migrationsFolder: config.migrationsFolder });
      await seedDemoData(db as unknown as Db);
      const loaded = await bulkLoad(client, { posts: settings.pglitePosts, onStep: stepLogger('PGlite load') });
      say(`PGlite ${packageVersion('@electric-sql/pglite')} in a data folder; bulk load of ${loaded.posts.toLocaleString('en')} posts in ${fixed(loaded.ms / 1000, 1)} s.`);
      say();
      range = await rangeOf(client, loaded.firstPostId);
      ticket = await benchTicket(client);
    } finally {
      await client.close();
    }
    say(`Load average before the runs: ${loadAverage()}.`);
    say();
    server = await startAnchoredServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
    // PGlite runs inside the server process: its CPU is the server's.
    reportCases('PGlite', await runCases('PGlite', server, feedCases(range, ticket, false, { loggedInFeeds: true }), () => []));
  } finally {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Searches at once in the search group: its goals are for 20. */
const SEARCH_CONNECTIONS = 20;

/**
 * search/'s first page on PostgreSQL as in `postgres` (BENCH_POSTS bulk-loaded posts, each with
 * its search document), for a rare, an uncommon, a common query and one every post holds, each
 * beside a raw query of the same GIN index for the same words (server-anchors.ts) in the same
 * rounds: what ranking, the posts' JSON and the excerpts cost above finding the posts.
 * Goals: p99 at most 100 ms under 20 searches at once, at least 0.8 × the raw query's req/s.
 */
async function searchGroup(): Promise<void> {
  say(`## Search on PostgreSQL, ${settings.posts.toLocaleString('en')} posts, ${SEARCH_CONNECTIONS} connections`);
  say();
  await withReadPostgres(async ({ url, runner, dbPids }) => {
    const ticket = await benchTicket(runner);
    // A five-digit article number of a loaded post: about one post in 100,000 has it.
    const { rows } = await runner.query(
      `select substring(content from 'article/([0-9]{5})$') as q from posts where content ~ 'article/[0-9]{5}$' order by id desc limit 1`,
    );
    const rare = (rows[0] as { q: string } | undefined)?.q ?? '12345';
    const queries = [
      { q: rare, what: 'an article number (about one post in 100,000)' },
      { q: '快速排序', what: 'a code title (about 3 % of the posts)' },
      { q: '学习话题', what: 'topic names (about 30 % of the posts)' },
      { q: '一致性协议', what: 'words every post holds' },
    ];
    const size = settings.pageSize;
    await withAnchoredServer(url, async (server) => {
      for (const { q, what } of queries) {
        say(`### “${q}”: ${what}`);
        say();
        const cases: Case[] = [
          { name: 'constant JSON', path: BENCH_ANCHOR_PATHS.constant, body: {}, anchor: 'constant' },
          { name: `raw search query, ${size} posts`, path: BENCH_ANCHOR_PATHS.rawSearch, body: { q, size }, anchor: 'raw' },
          { name: `cards of search/'s page, no names or excerpt`, path: BENCH_ANCHOR_PATHS.cardSearch, body: { q, size } },
          { name: `search/ first page, ${size} posts`, path: api.search.path, body: { q, size }, p99Goal: 100, ratioGoal: 0.8 },
          {
            name: `search/ first page, ${size} posts, logged in`,
            path: api.search.path,
            body: { q, size },
            headers: loggedInAs(ticket),
            p99Goal: 100,
            ratioGoal: 0.8,
          },
        ];
        reportCases(`search “${q}”`, await runCases(`search ${q}`, server, cases, dbPids, SEARCH_CONNECTIONS));
      }
      // Users by nickname: every loaded user is named 学员<n>, one of them 学员<n> alone.
      const { rows: named } = await runner.query(`select count(*)::int as users, max(nick) as one from users where nick like '学员%'`);
      const { users, one } = named[0] as { users: number; one: string };
      say(`### Users: “学员”, in all ${users.toLocaleString('en')} loaded nicknames, and “${one}”, in one`);
      say();
      const userCases: Case[] = [
        { name: 'constant JSON', path: BENCH_ANCHOR_PATHS.constant, body: {}, anchor: 'constant' },
        { name: `raw user search, ${size} users`, path: BENCH_ANCHOR_PATHS.rawUserSearch, body: { q: '学员', size }, anchor: 'raw' },
        { name: `search/ users “学员”, ${size} users`, path: api.search.path, body: { q: '学员', type: 'user', size }, p99Goal: 100 },
        { name: `search/ users “${one}”`, path: api.search.path, body: { q: one, type: 'user', size }, p99Goal: 100 },
      ];
      reportCases('search users', await runCases('search users', server, userCases, dbPids, SEARCH_CONNECTIONS));
    });
  });
}

/**
 * search/'s excerpts of a page of 20 posts (services/search.ts, postExcerpter: the text folded, its
 * matches found up to the excerpt's end, the excerpt cut) in this process, the query at the end of
 * each text, beside their anchor in the same rounds: the same texts folded by the platform alone
 * (normalize NFKC, lower case) and the query looked up in them once, what no excerpt can do
 * without. CPU of this process per page, medians of the rounds.
 */
function excerptsGroup(): void {
  say('## search/ excerpts of a page of 20 posts (in process)');
  say();
  const pageSize = 20;
  const calls = 200;
  const lengths = [100, 1_000, 10_000];
  const query = '蓝莓果酱';
  const cpuOfCalls = (call: () => void): number => {
    const started = process.cpuUsage();
    for (let i = 0; i < calls; i++) call();
    const used = process.cpuUsage(started);
    return (used.user + used.system) / calls;
  };
  say(`${settings.rounds} rounds of ${calls} pages per case, cases interleaved; the query “${query}” at the end of each post of ordinary text (the longest post is 10,000 characters).`);
  say();
  say('| post length | excerpts: µs per page, median (min-max) | *anchor:* fold + one lookup, µs per page | × anchor |');
  say('|---|---|---|---|');
  for (const length of lengths) {
    const texts = Array.from({ length: pageSize }, (_, i) => `${ordinaryText(length - query.length - 4)}${i} ${query}`);
    const heads = { topicNames: () => [], codeTitles: () => [] };
    const excerptOf = postExcerpter(query);
    const excerpts = () => texts.forEach((text) => excerptOf(text, heads));
    const anchor = () => texts.forEach((text) => text.normalize('NFKC').toLowerCase().indexOf(query));
    cpuOfCalls(excerpts);
    cpuOfCalls(anchor);
    const measured: number[] = [];
    const anchored: number[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      measured.push(cpuOfCalls(excerpts));
      anchored.push(cpuOfCalls(anchor));
    }
    say(
      `| ${length.toLocaleString('en-US')} characters | ${fixed(median(measured))} (${fixed(Math.min(...measured))}-${fixed(Math.max(...measured))}) | ${fixed(median(anchored))} | ${fixed(medianRatio(measured, anchored), 2)} |`,
    );
  }
  say();
}

/** Idle live streams one process holds in the live group, and the stream a post's arrival is timed at. */
const LIVE_STREAMS = 10_000;
const LIVE_TIMED_STREAM = 1_000;

/** A process's resident memory, in bytes (Linux). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return line ? Number(line[1]) * 1024 : NaN;
}

interface StreamHolder {
  openMs: number;
  /** When the timed stream had the post's event (ms since 1970). */
  arrival(postId: number): Promise<number>;
  stop(): Promise<void>;
}

/** LIVE_STREAMS idle streams to the server, held by a process of their own (live-streams.ts), once each is open. */
function holdStreams(url: string): Promise<StreamHolder> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tests/bench/live-streams.ts'), url, String(LIVE_STREAMS), String(LIVE_TIMED_STREAM)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const arrivals = new Map<number, number>();
    const waiting = new Map<number, (at: number) => void>();
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      let end: number;
      while ((end = out.indexOf('\n')) >= 0) {
        const line = JSON.parse(out.slice(0, end)) as { open?: number; ms?: number; post_id?: number; at?: number };
        out = out.slice(end + 1);
        if (line.open !== undefined) {
          resolve({
            openMs: line.ms!,
            arrival: (postId) => {
              const at = arrivals.get(postId);
              return at !== undefined ? Promise.resolve(at) : new Promise((found) => waiting.set(postId, found));
            },
            stop: async () => {
              child.kill('SIGTERM');
              await exited;
            },
          });
        } else if (line.post_id !== undefined) {
          arrivals.set(line.post_id, line.at!);
          waiting.get(line.post_id)?.(line.at!);
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`the stream holder exited with ${code} before its streams were open`)));
  });
}

/**
 * Live streams on PostgreSQL as in `postgres`: one server process holding LIVE_STREAMS idle
 * streams (opened by a process of their own), each round measuring the public feed alone, then
 * beside the streams, and a post's way from post/add to the LIVE_TIMED_STREAM-th stream; the
 * server's memory before and with them gives the memory per stream.
 * Goals: the feed's p99 beside the streams within 2 × alone; a post at that stream within 2 s.
 */
async function liveGroup(): Promise<void> {
  say(`## Live streams on PostgreSQL, ${LIVE_STREAMS.toLocaleString('en')} idle on one process, ${settings.posts.toLocaleString('en')} posts`);
  say();
  await withReadPostgres(async ({ url, runner }) => {
    const ticket = await benchTicket(runner);
    const server = await startAnchoredServer({ DATABASE_URL: url, MAX_CONNECTIONS_PER_ADDRESS: '1000000', WRITE_LIMIT_PER_MINUTE: '1000000', DAILY_POST_LIMIT: '1000000' });
    try {
      const feed: LoadSpec = { url: `${server.url}${api.channelPosts.path}`, body: { tab: 'all', size: settings.pageSize }, connections: settings.connections, seconds: settings.seconds };
      await runLoad({ ...feed, seconds: 2 });
      const rounds: { alone: LoadResult; beside: LoadResult; perStreamBytes: number; openMs: number; arrivalMs: number }[] = [];
      for (let round = 0; round < settings.rounds; round++) {
        const alone = await runLoad(feed);
        const before = residentBytes(server.pid);
        const holder = await holdStreams(server.url);
        try {
          const perStreamBytes = (residentBytes(server.pid) - before) / LIVE_STREAMS;
          const beside = await runLoad(feed);
          const sent = Date.now();
          const response = await fetch(`${server.url}${api.postAdd.path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...loggedInAs(ticket) },
            body: JSON.stringify({ content: `实时推送的测量 ${round}`, channel_id: [1], client_id: `bench-live-${Date.now()}-${round}` }),
          });
          const postId = ((await response.json()) as { data: { id: number } }).data.id;
          const arrivalMs = (await holder.arrival(postId)) - sent;
          rounds.push({ alone, beside, perStreamBytes, openMs: holder.openMs, arrivalMs });
          console.log(
            `  live round ${round + 1}/${settings.rounds} feed alone p99 ${fixed(alone.p99, 1)} ms, beside the streams p99 ${fixed(beside.p99, 1)} ms; ${fixed(perStreamBytes / 1024, 1)} KiB a stream; a post at stream ${LIVE_TIMED_STREAM} in ${arrivalMs} ms`,
          );
        } finally {
          await holder.stop();
        }
      }
      const p99Ratio = median(rounds.map((r) => r.beside.p99 / r.alone.p99));
      const arrival = median(rounds.map((r) => r.arrivalMs));
      say(`| live, ${LIVE_STREAMS.toLocaleString('en')} streams | median (min-max) | goal |`);
      say('|---|---|---|');
      const span = (values: number[], digits = 0) => `${fixed(median(values), digits)} (${fixed(Math.min(...values), digits)}-${fixed(Math.max(...values), digits)})`;
      say(`| channel/posts p99 alone, ms | ${span(rounds.map((r) => r.alone.p99), 1)} | |`);
      say(`| channel/posts p99 beside the streams, ms | ${span(rounds.map((r) => r.beside.p99), 1)} | |`);
      say(`| × alone | ${fixed(p99Ratio, 2)} | ≤ 2 ${p99Ratio <= 2 ? 'met' : '**not met**'} |`);
      say(`| channel/posts req/s alone / beside | ${span(rounds.map((r) => r.alone.rps))} / ${span(rounds.map((r) => r.beside.rps))} | |`);
      say(`| server memory a stream, KiB | ${span(rounds.map((r) => r.perStreamBytes / 1024), 1)} | |`);
      say(`| time to open them all, ms | ${span(rounds.map((r) => r.openMs))} | |`);
      say(`| post/add to the event at stream ${LIVE_TIMED_STREAM.toLocaleString('en')}, ms | ${span(rounds.map((r) => r.arrivalMs))} | ≤ 2000 ${arrival <= 2000 ? 'met' : '**not met**'} |`);
      say();
    } finally {
      await server.stop();
    }
  });
}

const NESTED_CONNECTIONS = 20;
/** `[`×n `]`×n: 800,000 bytes; `{"a":`×n `1` `}`×n: 960,001 bytes (the body limit is 1 MiB). */
const NESTED_ARRAYS = 400_000;
const NESTED_OBJECTS = 160_000;

/**
 * Other requests while one address sends the worst bodies it can: post/add with the texts that
 * cost the most to count (tests/support/worst-texts.ts), over the length limit and at it, at the
 * address's request limit (REQUEST_LIMIT_PER_ADDRESS a minute, as a steady rate). Readers of
 * post/detail at a steady rate well below what the server can answer measure their p99 in four
 * conditions by turns, round after round: alone (the anchor), beside a writer of ordinary posts
 * at the same rate, beside the worst writer, and beside a visitor's NESTED_CONNECTIONS sending
 * bodies nested as deep as the body limit lets them, at the same rate. Both writers are logged in
 * and their writes are not capped (the write limits would refuse them only after their bodies were checked).
 */

async function stallGroup(): Promise<void> {
  const writerRate = Math.round(config.requestLimitPerAddress / 60);
  const readerRate = 300;
  say(`## Other requests beside the worst bodies (PGlite, the demo community)`);
  say();
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-stall-'));
  let server: Server | undefined;
  try {
    const client = await PGlite.create({ dataDir });
    let ticket: string;
    let lastPostId: number;
    try {
      const db = drizzlePglite(client, { schema });
      await migratePglite(db, { migrationsFolder: config.migrationsFolder });
      await seedDemoData(db as unknown as Db);
      ticket = await benchTicket(client);
      lastPostId = Number(((await client.query('select max(id) as id from posts')).rows[0] as { id: number }).id);
    } finally {
      await client.close();
    }
    server = await startAnchoredServer({
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WRITE_LIMIT_PER_MINUTE: '1000000',
      DAILY_POST_LIMIT: '1000000',
    });
    const worst = worstTexts(POST_MAX_LENGTH * 4 - 1).flatMap(([, text]) => [{ content: text }, { content: atLength(text, POST_MAX_LENGTH) }]);
    const writer = (bodies: Record<string, unknown>[]): LoadSpec => ({
      url: `${server!.url}${api.postAdd.path}`,
      body: { channel_id: [1] },
      bodies,
      unique: ['client_id'],
      headers: { cookie: `${TICKET_COOKIE}=${ticket}` },
      rate: writerRate,
      connections: 4,
      seconds: settings.seconds,
    });
    const readers: LoadSpec = {
      url: `${server.url}${api.postDetail.path}`,
      body: {},
      random: { post_id: [1, lastPostId] },
      rate: readerRate,
      connections: 10,
      seconds: settings.seconds,
    };
    // Nested as deep as a body under the 1 MB limit goes, sent by a visitor (no login to check first).
    const nested: LoadSpec = {
      url: `${server.url}${api.postAdd.path}`,
      body: {},
      rawBodies: ['['.repeat(NESTED_ARRAYS) + ']'.repeat(NESTED_ARRAYS), '{"a":'.repeat(NESTED_OBJECTS) + '1' + '}'.repeat(NESTED_OBJECTS)],
      rate: writerRate,
      connections: NESTED_CONNECTIONS,
      seconds: settings.seconds,
    };
    const conditions = [
      { name: 'readers alone', writer: undefined },
      { name: 'beside a writer of ordinary posts', writer: writer([{ content: ordinaryText(200) }]) },
      { name: 'beside a writer of the worst bodies', writer: writer(worst) },
      { name: `beside ${NESTED_CONNECTIONS} connections of nested bodies`, writer: nested },
    ];
    say(
      `Readers: \`post/detail\` at ${readerRate} req/s over 10 connections; writer: \`post/add\` at ${writerRate} req/s (REQUEST_LIMIT_PER_ADDRESS ${config.requestLimitPerAddress} a minute) over 4 connections, ${worst.length} worst bodies in turn (${worst.length / 2} kinds of text, ${(POST_MAX_LENGTH * 4 - 1).toLocaleString('en')} code units and cut to ${POST_MAX_LENGTH.toLocaleString('en')} units); nested: \`post/add\` logged out at ${writerRate} req/s over ${NESTED_CONNECTIONS} connections, arrays ${NESTED_ARRAYS.toLocaleString('en')} deep and objects ${NESTED_OBJECTS.toLocaleString('en')} deep by turns. ${settings.rounds} rounds × ${settings.seconds} s, conditions by turns.`,
    );
    say();
    for (const condition of conditions) {
      await runLoad({ ...readers, seconds: 2 });
      if (condition.writer) await runLoad({ ...condition.writer, seconds: 2 });
    }
    const runs = new Map(conditions.map((condition) => [condition.name, [] as { readers: LoadResult; writer?: LoadResult }[]]));
    for (let round = 0; round < settings.rounds; round++) {
      const order = conditions.map((_, i) => conditions[(i + round) % conditions.length]!);
      for (const condition of order) {
        const [readersRun, writerRun] = await Promise.all([runLoad(readers), condition.writer ? runLoad(condition.writer) : undefined]);
        runs.get(condition.name)!.push({ readers: readersRun, ...(writerRun ? { writer: writerRun } : {}) });
        console.log(
          `  stall round ${round + 1}/${settings.rounds} ${condition.name.padEnd(36)} readers p50 ${fixed(readersRun.p50, 1)} ms p99 ${fixed(readersRun.p99, 1)} ms ${fixed(readersRun.rps)} req/s${writerRun ? `; writer ${fixed(writerRun.rps, 1)} req/s p99 ${fixed(writerRun.p99, 1)} ms` : ''}`,
        );
      }
    }
    const alone = runs.get(conditions[0]!.name)!;
    say('| condition | readers req/s | readers p50 ms | readers p99 ms | p99 × alone | writer req/s | writer p99 ms | errors |');
    say('|---|---|---|---|---|---|---|---|');
    for (const condition of conditions) {
      const list = runs.get(condition.name)!;
      const ratios = list.map((run, round) => run.readers.p99 / Math.max(1, alone[round]!.readers.p99));
      const writers = list.flatMap((run) => (run.writer ? [run.writer] : []));
      const errors = list.reduce((sum, run) => sum + run.readers.non2xx + run.readers.errors + (run.writer ? run.writer.non2xx + run.writer.errors : 0), 0);
      say(
        `| ${condition.writer ? condition.name : `*anchor:* ${condition.name}`} | ${fixed(median(list.map((run) => run.readers.rps)))} | ${fixed(median(list.map((run) => run.readers.p50)), 1)} | ${fixed(median(list.map((run) => run.readers.p99)), 1)} | ${condition.writer ? fixed(median(ratios), 2) : '1'} | ${writers.length ? fixed(median(writers.map((run) => run.rps)), 1) : ''} | ${writers.length ? fixed(median(writers.map((run) => run.p99)), 1) : ''} | ${errors} |`,
      );
    }
    say();
  } finally {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Users who write in the write groups, each logged in; a turn of the load takes one at random. */
const WRITERS = 200;

/** The write groups' PostgreSQL, loaded, with WRITERS users logged in. */
interface WriteDatabase {
  url: string;
  range: Awaited<ReturnType<typeof rangeOf>>;
  /** The writers' ids, first to last, and their logins as headers. */
  writers: [number, number];
  logins: Record<string, string>[];
  dbPids: () => number[];
}

interface WriteBench extends WriteDatabase {
  server: Server;
}

/** Deletes the posts after `lastPostId` (with their rows, by the foreign keys' cascade) and vacuums the posts. */
async function deleteWrittenPosts(runner: SqlRunner, lastPostId: number): Promise<void> {
  const { rows } = await runner.query(`with gone as (delete from posts where id > ${Math.trunc(lastPostId)} returning 1) select count(*)::int as n from gone`);
  await runner.query('vacuum analyze posts');
  console.log(`  deleted the ${(rows[0] as { n: number }).n} posts written after post ${lastPostId}`);
}

/**
 * PostgreSQL as the postgres group has it (its own, or DATABASE_URL; BENCH_POSTS posts) and
 * WRITERS logged-in users.
 */
async function withWriteDatabase(title: string, run: (bench: WriteDatabase) => Promise<void>): Promise<void> {
  // Without the read groups' maintenance_work_mem=512MB, as these groups always ran: their figures stay comparable with earlier results.
  const serverSettings = ['shared_buffers=1GB', 'max_wal_size=4GB'];
  await withLoadedPostgres({ serverSettings, loadLabel: `${title} load` }, async ({ url, runner, range, dbPids, version, own }) => {
    const ids = (await runner.query(`select id from users order by id desc limit ${WRITERS}`)).rows.map((row) => Number((row as { id: number }).id));
    const logins = [];
    for (const id of ids) logins.push({ cookie: `${TICKET_COOKIE}=${await benchTicket(runner, id)}` });
    say(
      `PostgreSQL ${version} (${own ? 'started by the bench: fsync off' : 'DATABASE_URL'}), ${(range.lastPostId - range.firstPostId + 1).toLocaleString('en')} posts, ${WRITERS} writers logged in; write limits lifted (still counted). Load average before the runs: ${loadAverage()}.`,
    );
    say();
    try {
      await run({ url, range, writers: [Math.min(...ids), Math.max(...ids)], logins, dbPids });
    } finally {
      // A database of DATABASE_URL outlives the bench: the posts written here would lead every
      // newest-first read of the groups run on it later (a search then walks through them).
      if (!own) await deleteWrittenPosts(runner, range.lastPostId);
    }
    say(`Load average after the runs: ${loadAverage()}.`);
    say();
  });
}

/** withWriteDatabase with the anchored server on it, the write limits lifted out of the way (they are still counted). */
async function withWriteBench(title: string, run: (bench: WriteBench) => Promise<void>): Promise<void> {
  await withWriteDatabase(title, async (base) => {
    const server = await startAnchoredServer({
      DATABASE_URL: base.url,
      WRITE_LIMIT_PER_MINUTE: '1000000',
      DAILY_POST_LIMIT: '1000000',
      DAILY_COMMENT_LIMIT: '1000000',
    });
    try {
      await run({ ...base, server });
    } finally {
      await server.stop();
    }
  });
}

/** One write as the app takes it, and the same change as its raw anchor. */
interface WritePair {
  name: string;
  write: Omit<LoadSpec, 'connections' | 'seconds'>;
  anchor: Omit<LoadSpec, 'connections' | 'seconds'>;
}

function writePairs({ server, range, writers, logins }: WriteBench): WritePair[] {
  const postId: [number, number] = [range.firstPostId, range.lastPostId];
  const content = ordinaryText(80);
  const channels = Array.from({ length: range.channels[1] - range.channels[0] + 1 }, (_, i) => range.channels[0] + i);
  const at = (path: string) => `${server.url}${path}`;
  const asWriters = { unique: ['client_id'], headerSets: logins };
  return [
    {
      name: 'likes/add + likes/cancel',
      write: { url: at(api.likeAdd.path), paths: [api.likeAdd.path, api.likeCancel.path], body: {}, random: { post_id: postId }, ...asWriters },
      anchor: {
        url: at(BENCH_ANCHOR_PATHS.rawLikeAdd),
        paths: [BENCH_ANCHOR_PATHS.rawLikeAdd, BENCH_ANCHOR_PATHS.rawLikeCancel],
        body: {},
        random: { post_id: postId, user_id: writers },
      },
    },
    {
      name: 'comment/add',
      write: { url: at(api.commentAdd.path), body: { content }, random: { post_id: postId }, ...asWriters },
      anchor: { url: at(BENCH_ANCHOR_PATHS.rawCommentAdd), body: { content }, random: { post_id: postId, user_id: writers } },
    },
    {
      name: 'post/add, text only',
      write: { url: at(api.postAdd.path), body: { content }, bodies: channels.map((id) => ({ channel_id: [id] })), ...asWriters },
      anchor: {
        url: at(BENCH_ANCHOR_PATHS.rawPostAdd),
        body: { content },
        bodies: channels.map((id) => ({ channel_id: id })),
        random: { user_id: writers },
      },
    },
  ];
}

/** One turn of the spec by hand: every answer must be a success envelope (a write refused measures nothing). */
async function checkWrite(name: string, spec: Omit<LoadSpec, 'connections' | 'seconds'>): Promise<void> {
  const origin = new URL(spec.url).origin;
  const drawn = Object.fromEntries(Object.entries(spec.random ?? {}).map(([field, [min, max]]) => [field, min + Math.floor(Math.random() * (max - min + 1))]));
  for (const path of spec.paths ?? [new URL(spec.url).pathname]) {
    const body = { ...spec.body, ...spec.bodies?.[0], ...drawn, ...Object.fromEntries((spec.unique ?? []).map((field) => [field, `check-${Math.random()}`])) };
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...spec.headers, ...spec.headerSets?.[0] },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { code: number };
    if (json.code !== 0) throw new Error(`${name} ${path}: ${JSON.stringify(json)} for ${JSON.stringify(body)}`);
  }
}

const ratioCell = (ratio: number, goal: number, atMost = false) => `${fixed(ratio, 2)} ${(atMost ? ratio <= goal : ratio >= goal) ? '' : '**not met**'}`.trim();

/**
 * Each write beside its raw anchor at settings.connections connections, interleaved round after
 * round (each round starts one run later). Goal: req/s at least 0.5 × the anchor's, p99 at most 2 ×.
 */
async function writesGroup(): Promise<void> {
  say(`## Writes on PostgreSQL beside their raw anchors, ${settings.connections} connections`);
  say();
  await withWriteBench('writes', async (bench) => {
    const pairs = writePairs(bench).filter((pair) => !settings.cases || settings.cases.test(pair.name));
    const runs = pairs.flatMap((pair) => [
      { pair, anchor: false, spec: pair.write },
      { pair, anchor: true, spec: pair.anchor },
    ]);
    const measured = new Map(runs.map((run) => [run, [] as Run[]]));
    for (const run of runs) {
      await checkWrite(run.pair.name, run.spec);
      await runLoad({ ...run.spec, connections: settings.connections, seconds: 2 });
    }
    for (let round = 0; round < settings.rounds; round++) {
      for (const run of runs.map((_, i) => runs[(i + round) % runs.length]!)) {
        const pids = [bench.server.pid, ...bench.dbPids()];
        const before = cpuOf(pids);
        const loaded = await runLoad({ ...run.spec, connections: settings.connections, seconds: settings.seconds });
        const after = cpuOf([...pids, ...bench.dbPids()]);
        const serverCpuMs = (after.get(bench.server.pid) ?? 0) - (before.get(bench.server.pid) ?? 0);
        measured.get(run)!.push({ ...loaded, serverCpuMs, dbCpuMs: cpuUsedBetween(before, after) - serverCpuMs });
        console.log(
          `  writes round ${round + 1}/${settings.rounds} ${`${run.anchor ? 'anchor: ' : ''}${run.pair.name}`.padEnd(36)} ${fixed(loaded.rps).padStart(6)} req/s  p50 ${fixed(loaded.p50, 1)} ms  p99 ${fixed(loaded.p99, 1)} ms  cpu ${fixed((serverCpuMs / loaded.requests) * 1000)} + ${fixed(((cpuUsedBetween(before, after) - serverCpuMs) / loaded.requests) * 1000)} µs/req${loaded.non2xx + loaded.errors ? `  ${loaded.non2xx} non-2xx, ${loaded.errors} errors` : ''}`,
        );
      }
    }
    say(`${settings.rounds} rounds × ${settings.seconds} s, runs interleaved; ratios are medians of each round's ratio to the anchor of the same round.`);
    say();
    say('| PostgreSQL | req/s median (min-max) | p50 ms | p99 ms | × anchor req/s (goal ≥ 0.5) | × anchor p99 (goal ≤ 2) | server + db CPU µs/req | errors |');
    say('|---|---|---|---|---|---|---|---|');
    for (const run of runs) {
      const list = measured.get(run)!;
      const anchorRuns = measured.get(runs.find((other) => other.pair === run.pair && other.anchor)!)!;
      const rps = list.map((one) => one.rps);
      const errors = list.reduce((sum, one) => sum + one.non2xx + one.errors, 0);
      const rate = run.anchor ? '1' : ratioCell(median(list.map((one, i) => one.rps / anchorRuns[i]!.rps)), 0.5);
      const tail = run.anchor ? '1' : ratioCell(median(list.map((one, i) => one.p99 / Math.max(1, anchorRuns[i]!.p99))), 2, true);
      say(
        `| ${run.anchor ? `*anchor:* raw ${run.pair.name}` : run.pair.name} | ${fixed(median(rps))} (${fixed(Math.min(...rps))}-${fixed(Math.max(...rps))}) | ${fixed(median(list.map((one) => one.p50)), 1)} | ${fixed(median(list.map((one) => one.p99)), 1)} | ${rate} | ${tail} | ${fixed(median(list.map(cpuPerRequest)) * 1000)} | ${errors} |`,
      );
    }
    say();
  });
}

/** Read and write connections of the mixed group. */
const MIXED_READERS = 45;
const MIXED_WRITERS = 5;

/**
 * Writes under read load: each write at MIXED_WRITERS connections alone, then beside
 * MIXED_READERS connections reading the feed (tab all, random pages), by turns in the same
 * rounds; its raw anchor (server-anchors.ts) alike, so that what the machine's load alone does to
 * a write's tail stands beside what it does to ours. Goal: beside the readers, at least 0.7 × the
 * req/s alone and p99 at most 2 ×.
 */
async function mixedGroup(): Promise<void> {
  say(`## Writes under read load on PostgreSQL: ${MIXED_WRITERS} write connections alone and beside ${MIXED_READERS} reading`);
  say();
  await withWriteBench('mixed', async (bench) => {
    const pairs = writePairs(bench).filter((pair) => !settings.cases || settings.cases.test(pair.name));
    const size = settings.pageSize;
    const readers: LoadSpec = {
      url: `${bench.server.url}${api.channelPosts.path}`,
      body: { tab: 'all', size },
      random: { index: [bench.range.firstPostId + size * 4, bench.range.lastPostId + 1] },
      connections: MIXED_READERS,
      seconds: settings.seconds,
    };
    const conditions = pairs.flatMap((pair) =>
      [false, true].flatMap((anchor) => [
        { pair, anchor, beside: false },
        { pair, anchor, beside: true },
      ]),
    );
    const specOf = (condition: (typeof conditions)[number]) => (condition.anchor ? condition.pair.anchor : condition.pair.write);
    const nameOf = (condition: (typeof conditions)[number]) => `${condition.anchor ? 'anchor: raw ' : ''}${condition.pair.name}`;
    const measured = new Map(conditions.map((condition) => [condition, [] as { write: LoadResult; read?: LoadResult }[]]));
    for (const pair of pairs) for (const spec of [pair.write, pair.anchor]) await checkWrite(pair.name, spec);
    await runLoad({ ...readers, seconds: 2 });
    for (const pair of pairs) for (const spec of [pair.write, pair.anchor]) await runLoad({ ...spec, connections: MIXED_WRITERS, seconds: 2 });
    for (let round = 0; round < settings.rounds; round++) {
      for (const condition of conditions.map((_, i) => conditions[(i + round) % conditions.length]!)) {
        const writing = runLoad({ ...specOf(condition), connections: MIXED_WRITERS, seconds: settings.seconds });
        const [write, read] = await Promise.all([writing, condition.beside ? runLoad(readers) : undefined]);
        measured.get(condition)!.push({ write, ...(read ? { read } : {}) });
        console.log(
          `  mixed round ${round + 1}/${settings.rounds} ${`${nameOf(condition)}${condition.beside ? ' beside readers' : ' alone'}`.padEnd(56)} ${fixed(write.rps).padStart(6)} req/s  p99 ${fixed(write.p99, 1)} ms${read ? `; readers ${fixed(read.rps)} req/s p99 ${fixed(read.p99, 1)} ms` : ''}`,
        );
      }
    }
    say(
      `Readers: \`channel/posts\` tab all, random pages. ${settings.rounds} rounds × ${settings.seconds} s, conditions by turns; ratios are medians of each round's ratio to the same write alone in that round. The raw anchors' rows show what the readers alone do to a write that carries none of the guarantees.`,
    );
    say();
    say('| write | req/s median | p50 ms | p99 ms | × alone req/s (goal ≥ 0.7) | × alone p99 (goal ≤ 2) | readers req/s | readers p99 ms | errors |');
    say('|---|---|---|---|---|---|---|---|---|');
    for (const condition of conditions) {
      const list = measured.get(condition)!;
      const alone = measured.get(conditions.find((other) => other.pair === condition.pair && other.anchor === condition.anchor && !other.beside)!)!;
      const reads = list.flatMap((one) => (one.read ? [one.read] : []));
      const errors = list.reduce((sum, one) => sum + one.write.non2xx + one.write.errors + (one.read ? one.read.non2xx + one.read.errors : 0), 0);
      const name = condition.anchor ? `*anchor:* raw ${condition.pair.name}` : condition.pair.name;
      say(
        `| ${name}, ${condition.beside ? `beside ${MIXED_READERS} readers` : '*alone*'} | ${fixed(median(list.map((one) => one.write.rps)))} | ${fixed(median(list.map((one) => one.write.p50)), 1)} | ${fixed(median(list.map((one) => one.write.p99)), 1)} | ${condition.beside ? ratioCell(median(list.map((one, i) => one.write.rps / alone[i]!.write.rps)), 0.7) : '1'} | ${condition.beside ? ratioCell(median(list.map((one, i) => one.write.p99 / Math.max(1, alone[i]!.write.p99))), 2, true) : '1'} | ${reads.length ? fixed(median(reads.map((one) => one.rps))) : ''} | ${reads.length ? fixed(median(reads.map((one) => one.p99)), 1) : ''} | ${errors} |`,
      );
    }
    say();
  });
}

/** One run of write-floor.ts with the CPU of the database's processes during its measured part. */
interface FloorRun extends FloorResult {
  dbCpuMs: number;
}

/**
 * Runs write-floor.ts in a process of its own (as runLoad runs load.ts): once it has warmed up,
 * the database's CPU is read around its measured run, before it closes its pool (its backends
 * end with it).
 */
function runFloor(spec: FloorSpec, dbPids: () => number[]): Promise<FloorRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tests/bench/write-floor.ts'), JSON.stringify(spec)], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let before: Map<number, number> | undefined;
    let result: FloorRun | undefined;
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        if (!line.startsWith('{')) continue;
        const message = JSON.parse(line) as FloorResult | { ready: true };
        if ('ready' in message) {
          before = cpuOf(dbPids());
          child.stdin.write('go\n');
        } else {
          const after = cpuOf(dbPids());
          result = { ...message, dbCpuMs: cpuUsedBetween(before ?? new Map(), after) };
          child.stdin.end();
        }
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0 || !result) return reject(new Error(`write-floor exited with ${code}${result ? '' : ' before its figures'}`));
      resolve(result);
    });
  });
}

/**
 * The writes without HTTP: each write's service path (writer() and the effect, as the routes call
 * them, no login lookup) beside its raw anchor statement, from a process of its own on the app's
 * pool, interleaved round after round. Their ratio is what the database work of the write's
 * guarantees alone leaves of the anchor's rate; the writes group's ratio adds the HTTP layer.
 */
async function writeFloorGroup(): Promise<void> {
  say(`## Writes without HTTP on PostgreSQL: the service path beside the raw anchor statement and that statement with the guarantees, ${settings.connections} loops`);
  say();
  await withWriteDatabase('write-floor', async (bench) => {
    const cases: { name: string; id: FloorCase }[] = [
      { name: 'likes/add + likes/cancel', id: 'likes' },
      { name: 'comment/add', id: 'comment' },
      { name: 'post/add, text only', id: 'post' },
    ].filter((one) => !settings.cases || settings.cases.test(one.name)) as { name: string; id: FloorCase }[];
    const { channels } = bench.range;
    const forms = (id: FloorCase): FloorForm[] => (id === 'post' ? ['service', 'guarantees', 'searchable', 'anchor'] : ['service', 'guarantees', 'anchor']);
    const runs = cases.flatMap((one) => forms(one.id).map((form) => ({ ...one, form })));
    const spec = (run: (typeof runs)[number]): FloorSpec => ({
      databaseUrl: bench.url,
      case: run.id,
      form: run.form,
      seconds: settings.seconds,
      warmup: 2,
      connections: settings.connections,
      postIds: [bench.range.firstPostId, bench.range.lastPostId],
      userIds: bench.writers,
      channelIds: Array.from({ length: channels[1] - channels[0] + 1 }, (_, i) => channels[0] + i),
      content: ordinaryText(80),
    });
    const measured = new Map(runs.map((run) => [run, [] as FloorRun[]]));
    for (let round = 0; round < settings.rounds; round++) {
      for (const run of runs.map((_, i) => runs[(i + round) % runs.length]!)) {
        const floor = await runFloor(spec(run), bench.dbPids);
        measured.get(run)!.push(floor);
        console.log(
          `  write-floor round ${round + 1}/${settings.rounds} ${`${run.form}: ${run.name}`.padEnd(36)} ${fixed(floor.opsPerSecond).padStart(6)} ops/s  p50 ${fixed(floor.p50, 1)} ms  p99 ${fixed(floor.p99, 1)} ms  cpu ${fixed((floor.clientCpuMs / floor.ops) * 1000)} + ${fixed((floor.dbCpuMs / floor.ops) * 1000)} µs/op${floor.errors ? `  ${floor.errors} errors` : ''}`,
        );
      }
    }
    const cpuPerOp = (one: FloorRun) => ((one.clientCpuMs + one.dbCpuMs) / one.ops) * 1000;
    say(`${settings.rounds} rounds × ${settings.seconds} s (after 2 s of warm-up in the same process), runs interleaved; ratios are medians of each round's ratio to the anchor of the same round.`);
    say();
    say('| no HTTP | ops/s median (min-max) | p50 ms | p99 ms | × anchor ops/s | CPU µs/op: client + db | × anchor CPU/op | errors |');
    say('|---|---|---|---|---|---|---|---|');
    for (const run of runs) {
      const list = measured.get(run)!;
      const anchorRuns = measured.get(runs.find((other) => other.id === run.id && other.form === 'anchor')!)!;
      const rates = list.map((one) => one.opsPerSecond);
      const anchor = run.form === 'anchor';
      const label = {
        anchor: `*anchor:* raw ${run.name}`,
        guarantees: `*anchor:* raw ${run.name} + exactly-once key${run.id === 'post' ? '' : ' + notice'}`,
        searchable: `*anchor:* raw ${run.name} + exactly-once key + search document`,
        service: `service: ${run.name}`,
      }[run.form];
      say(
        `| ${label} | ${fixed(median(rates))} (${fixed(Math.min(...rates))}-${fixed(Math.max(...rates))}) | ${fixed(median(list.map((one) => one.p50)), 1)} | ${fixed(median(list.map((one) => one.p99)), 1)} | ${anchor ? '1' : fixed(median(list.map((one, i) => one.opsPerSecond / anchorRuns[i]!.opsPerSecond)), 2)} | ${fixed(median(list.map((one) => (one.clientCpuMs / one.ops) * 1000)))} + ${fixed(median(list.map((one) => (one.dbCpuMs / one.ops) * 1000)))} | ${anchor ? '1' : fixed(median(list.map((one, i) => cpuPerOp(one) / cpuPerOp(anchorRuns[i]!))), 2)} | ${list.reduce((sum, one) => sum + one.errors, 0)} |`,
      );
    }
    say();
  });
}

async function seedGroup(): Promise<void> {
  say('## Seed and start-up');
  say();
  const started = performance.now();
  const database = await openDatabase({ migrationsFolder: config.migrationsFolder });
  const migrated = performance.now();
  await seedDemoData(database.db);
  const seeded = performance.now();
  await database.close();
  say(`- PGlite in memory: create + migrate ${fixed(migrated - started)} ms; seed the demo community ${fixed(seeded - migrated)} ms`);
  say();
}

function bundleGroup(): void {
  say('## Bundle');
  say();
  const clientDir = join(root, 'dist/client');
  const indexFile = join(clientDir, 'index.html');
  if (!existsSync(indexFile)) {
    say('- skipped: run `npm run build` first');
    say();
    return;
  }
  const html = readFileSync(indexFile, 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
  let raw = 0;
  let gzip = 0;
  for (const asset of assets) {
    const bytes = readFileSync(join(clientDir, asset));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  say(`- /home initial JS + CSS (index.html references): ${fixed(raw / 1024, 1)} KiB raw, ${fixed(gzip / 1024, 1)} KiB gzip-9, ${assets.length} files`);
  const sw = join(clientDir, 'sw.js');
  if (existsSync(sw)) say(`- service worker sw.js: ${fixed(statSync(sw).size / 1024, 1)} KiB raw`);
  const serverBundle = join(root, 'dist/server/main.js');
  if (existsSync(serverBundle)) say(`- server bundle dist/server/main.js: ${fixed(statSync(serverBundle).size / 1024, 1)} KiB raw`);
  say();
}

async function startupGroup(): Promise<void> {
  say('## Start-up of the built server (PGlite)');
  say();
  if (!existsSync(join(root, 'dist/server/main.js'))) {
    say('- skipped: run `npm run build` first');
    say();
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-start-'));
  try {
    for (const label of ['first start, migrate + seed, until answering', 'later start on existing data']) {
      const started = performance.now();
      const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO_DATA: 'true' });
      const ms = performance.now() - started;
      await server.stop();
      say(`- ${label}: ${fixed(ms)} ms`);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  say();
}

// ---------------------------------------------------------------------------------------------

function machine(): string[] {
  const cpu = cpus();
  return [
    `- Date: ${startedAt.toISOString()}`,
    `- Commit: ${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--untracked-files=no']) ? ' (with uncommitted changes)' : ''}`,
    `- CPU: ${cpu[0]?.model ?? 'unknown'}, ${cpu.length} cores (shared with other work: figures are noisy, ratios count)`,
    `- Memory: ${fixed(totalmem() / 2 ** 30, 1)} GiB`,
    `- Load average at the start (1, 5, 15 min): ${loadAverage()}`,
    `- Node ${process.version}, fastify ${packageVersion('fastify')}, pg ${packageVersion('pg')}, PGlite ${packageVersion('@electric-sql/pglite')}, autocannon ${packageVersion('autocannon')} (the load generator, in a process of its own); server: \`npm run serve\`'s command, LOG_LEVEL=warn, compression not asked for`,
    `- Rounds ${settings.rounds} × ${settings.seconds} s per case (after a 2 s warm-up each), ${settings.connections} connections, cases interleaved`,
  ];
}

const firstScreen = { say, startServer, lighthouseRounds: settings.lighthouseRounds, offlineRounds: settings.offlineRounds, against: settings.against ? { root: settings.against, commit: git(['rev-parse', '--short', 'HEAD'], settings.against) } : undefined };
const groups: Record<string, () => Promise<void> | void> = {
  postgres: postgresGroup,
  'logged-in': loggedInGroup,
  search: searchGroup,
  excerpts: excerptsGroup,
  live: liveGroup,
  pglite: pgliteGroup,
  stall: stallGroup,
  writes: writesGroup,
  mixed: mixedGroup,
  'write-floor': writeFloorGroup,
  seed: seedGroup,
  bundle: bundleGroup,
  startup: startupGroup,
  lighthouse: () => lighthouseGroup(firstScreen),
  offline: () => offlineGroup(firstScreen),
};
for (const name of only) if (!groups[name]) throw new Error(`unknown group ${name}; groups: ${Object.keys(groups).join(', ')}`);

say(`# Benchmark ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
say();
say(`\`npm run bench${only.length ? ` -- --only=${only.join(',')}` : ''}\``);
say();
for (const line of machine()) say(line);
say();
say('Ratios are medians of the per-round ratios (each case over the anchor measured in the same round).');
say();
const header = report.length;
/** Each group's lines of the report. */
const parts = new Map<string, [number, number]>();
for (const [name, run] of Object.entries(groups)) {
  if (only.length > 0 && !only.includes(name)) continue;
  const from = report.length;
  await run();
  parts.set(name, [from, report.length]);
}
const end = `Load average at the end: ${loadAverage()}.`;
say(end);
const reportDir = join(tmpdir(), 'community-feed-bench');
await mkdir(reportDir, { recursive: true });
const file = join(reportDir, `${startedAt.toISOString().slice(0, 16).replace(/[:T]/g, '-')}.md`);
await writeFile(file, `${report.join('\n')}\n`);
console.log(`report: ${file}`);
if (keep) {
  const resultsDir = join(root, 'tests/bench/results');
  await mkdir(resultsDir, { recursive: true });
  for (const [name, [from, to]] of parts) {
    const kept = join(resultsDir, `${name}.md`);
    const note = `The ${name} group's part of this run's report.`;
    await writeFile(kept, `${[...report.slice(0, header), note, '', ...report.slice(from, to), end].join('\n')}\n`);
    console.log(`kept: ${kept}`);
  }
}
