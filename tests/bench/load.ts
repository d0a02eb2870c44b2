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
 * address at its request limit). A spec too long for a command line is passed as `@<file>`.
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
  /** Fields set to a fresh value on every request. */
  unique?: string[];
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
const makeBody = () => {
  const body = { ...spec.body, ...bodies[sent % bodies.length] };
  sent += 1;
  for (const [field, range] of random) body[field] = draw(range);
  for (const field of spec.unique ?? []) body[field] = `load-${runId}-${sent}`;
  return JSON.stringify(body);
};

const cpuBefore = process.cpuUsage();
const result = await autocannon({
  url: spec.url,
  method: 'POST',
  connections: spec.connections,
  duration: spec.seconds,
  ...(spec.rate ? { overallRate: spec.rate } : {}),
  headers: { 'content-type': 'application/json', ...spec.headers },
  requests: [{ setupRequest: (request) => ({ ...request, body: makeBody() }) }],
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
