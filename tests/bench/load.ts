/**
 * One load run, in a process of its own (so the load generator never shares the server's
 * event loop): autocannon POSTs JSON bodies to one URL for a while and prints one line of
 * JSON with the figures. Spawned by run.ts; usable by hand:
 *
 *   node --import tsx tests/bench/load.ts '{"url":"http://127.0.0.1:3000/serv/v1/channel/posts",
 *     "body":{"tab":"all"},"random":{"index":[1,1000000]},"connections":50,"seconds":5}'
 *
 * Each request's body is `body` with every field of `random` set to a whole number drawn
 * uniformly from its [min, max], so a run reads many pages, not one cached page. With `bodies`,
 * the requests take them in turn (over `body`); each field of `unique` gets a value never sent
 * before (a write's client_id); `rate` holds the run to so many requests a second in all (one
 * address at its request limit). With `paths`, each connection sends to them in turn (a like,
 * then its cancel), the turn sharing one draw of `random` and of `headerSets` (one user's login
 * of several). A spec too long for a command line is passed as `@<file>`.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  body: Record<string, unknown>;
  random?: Record<string, [number, number]>;
  headers?: Record<string, string>;
  /** Bodies taken in turn, each over `body`. */
  bodies?: Record<string, unknown>[];
  /** Texts sent as they are, in turn, instead of `body` and `bodies` (bodies no object makes: nested 400,000 deep). */
  rawBodies?: string[];
  /** Fields set to a fresh value on every request. */
  unique?: string[];
  /** Paths on `url`'s origin taken in turn by each connection, one draw of `random` and `headerSets` per turn. */
  paths?: string[];
  /** Header sets (logins of several users), one drawn per turn, over `headers`. */
  headerSets?: Record<string, string>[];
  /** Requests per second of the whole run (autocannon's overallRate); absent: as fast as it goes. */
  rate?: number;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU time this load generator used during the run, in ms. */
  loadCpuMs: number;
}

// `@file`: the spec in a file (bodies too long for a command line).
const argument = process.argv[2] ?? '';
const spec = JSON.parse(argument.startsWith('@') ? readFileSync(argument.slice(1), 'utf8') : argument) as LoadSpec;
const random = Object.entries(spec.random ?? {});
const draw = ([min, max]: [number, number]) => min + Math.floor(Math.random() * (max - min + 1));
const bodies = spec.bodies ?? [{}];
const runId = `${process.pid}-${Date.now().toString(36)}`;
let sent = 0;
/** What one turn of `paths` shares: its draws. */
interface Turn {
  drawn?: Record<string, number>;
  headers?: Record<string, string>;
}
const makeBody = (turn: Turn) => {
  if (spec.rawBodies) return spec.rawBodies[sent++ % spec.rawBodies.length]!;
  const body = { ...spec.body, ...bodies[sent % bodies.length] };
  sent += 1;
  turn.drawn ??= Object.fromEntries(random.map(([field, range]) => [field, draw(range)]));
  Object.assign(body, turn.drawn);
  for (const field of spec.unique ?? []) body[field] = `load-${runId}-${sent}`;
  return JSON.stringify(body);
};
const headerSets = spec.headerSets ?? [{}];
const baseHeaders = { 'content-type': 'application/json', ...spec.headers };
const headersOf = (turn: Turn) => (turn.headers ??= { ...baseHeaders, ...headerSets[Math.floor(Math.random() * headerSets.length)] });
const paths = spec.paths ?? [new URL(spec.url).pathname];

const cpuBefore = process.cpuUsage();
const result = await autocannon({
  url: spec.url,
  method: 'POST',
  connections: spec.connections,
  duration: spec.seconds,
  ...(spec.rate ? { overallRate: spec.rate } : {}),
  headers: baseHeaders,
  // autocannon hands each connection's turn through the list one context, fresh for the next turn.
  requests: paths.map((path) => ({
    setupRequest: (request, turn) => ({ ...request, path, headers: headersOf(turn as Turn), body: makeBody(turn as Turn) }),
  })),
});

const cpu = process.cpuUsage(cpuBefore);
const out: LoadResult = {
  requests: result.requests.total,
  seconds: result.duration,
  rps: result.requests.total / result.duration,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  loadCpuMs: (cpu.user + cpu.system) / 1000,
};
process.stdout.write(`${JSON.stringify(out)}\n`);
