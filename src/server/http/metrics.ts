/**
 * GET /metrics in the Prometheus text format, to the addresses of METRICS_ALLOW when it is set
 * (METRICS on or off), else to anyone with METRICS=true: the process and Node's own (prom-client's
 * defaults: CPU, memory, heap, GC, event-loop lag, open files, start time), the release's version,
 * requests by route and status, their latency, the -2005 refusals, the database pool and its
 * queries (PostgreSQL), login codes not delivered, and the replayed writes. Each app has its own
 * registry, so two apps in one process (the tests) never share or clash over a metric.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { routes, type EndpointName } from '#shared/endpoints.ts';
import type { PoolStats, QueryObserver } from '../db/client.ts';
import type { CodeSender } from '../services/login.ts';
import { addressMatcher } from '../address-ranges.ts';

export const METRICS_PATH = '/metrics';

/** Phones on slow networks wait seconds; a read from a warm database takes milliseconds. */
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A query on an index answers in about a millisecond; one waiting on a lock or a busy server, in seconds. */
const QUERY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface MetricsOptions {
  /** METRICS=true: every peer is served, unless `allow` names some. */
  public: boolean;
  /** METRICS_ALLOW: when set, the only peers served. */
  allow: readonly string[];
  /** The database's connections now (PostgreSQL's pool; PGlite has none to tell). */
  poolStats?: (() => PoolStats) | undefined;
  /** Hands the database an observer of its queries (PostgreSQL's Database.observeQueries). */
  observeQueries?: ((observer: QueryObserver) => void) | undefined;
  /** The release's version (package.json), told as a label of build_info. */
  version: string;
}

export interface Metrics {
  /** Answers the registry's text to a peer it may go to; undefined: the caller answers 404 as for any other. */
  serve(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined;
  /** A write came with a client_id already answered (services/once.ts): an outbox sent it again. */
  replayed(endpoint: EndpointName): void;
  /** A login code was not delivered (the webhook failed on every try). */
  codeNotSent(): void;
}

/** Counts every answer of `app`; answers what serves the registry's text and takes the replays. */
export function installMetrics(app: FastifyInstance, options: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'community_feed_build_info',
    help: 'Always 1: the running release, by version and Node version.',
    labelNames: ['version', 'node_version'] as const,
    registers: [registry],
  }).set({ version: options.version, node_version: process.version }, 1);
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route and HTTP status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request to its answer, by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with -2005 (a rate limit reached), by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });

  const replays = new Counter({
    name: 'write_replays_total',
    help: 'Writes whose client_id was already answered (a client sending its queued writes again), by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const codesNotSent = new Counter({
    name: 'login_codes_not_sent_total',
    help: 'Login codes the webhook did not deliver after its tries (answered -1013).',
    registers: [registry],
  });
  observeDatabase(registry, options);

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, not the path: ids in paths (and probes of paths that do not exist) would make a label per request.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    // Only a -2005 is answered 200 with Retry-After (the 503s carry it with their own status).
    if (reply.statusCode === 200 && reply.hasHeader('retry-after')) refusals.inc({ route });
  });

  // An allow-list, once set, is the rule: METRICS=true beside it must not open the answer to everyone.
  const allowed = options.allow.length > 0 ? addressMatcher(options.allow) : () => options.public;
  return {
    // request.ip: the peer as TRUST_PROXY believes it, the same address the limits per address count.
    serve: (request, reply) => (allowed(request.ip) ? registry.metrics().then((text) => reply.type(registry.contentType).send(text)) : undefined),
    replayed: (endpoint) => replays.inc({ route: routes[endpoint].path }),
    codeNotSent: () => codesNotSent.inc(),
  };
}

/** The database's side, when it is told: each query's time and failures, and the pool's connections read at each scrape. */
function observeDatabase(registry: Registry, { poolStats, observeQueries }: MetricsOptions): void {
  if (observeQueries) {
    const queries = new Histogram({
      name: 'db_query_duration_seconds',
      help: 'Time from a PostgreSQL query sent to its answer, failed or not.',
      buckets: QUERY_BUCKETS_SECONDS,
      registers: [registry],
    });
    const queryErrors = new Counter({
      name: 'db_query_errors_total',
      help: 'PostgreSQL queries that failed (an error from the server, or the connection lost).',
      registers: [registry],
    });
    observeQueries((seconds, failed) => {
      queries.observe(seconds);
      if (failed) queryErrors.inc();
    });
  }
  if (poolStats) {
    // Read at each scrape: a gauge set at each query would cost every request for what only a scrape reads.
    const gauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(poolStats()));
        },
      });
    gauge('db_pool_connections_max', 'PostgreSQL connections the pool may open (DATABASE_POOL_SIZE).', (stats) => stats.max);
    gauge('db_pool_connections', 'PostgreSQL connections the pool holds open, lent or idle.', (stats) => stats.total);
    gauge('db_pool_connections_idle', 'PostgreSQL connections open and not lent to a request.', (stats) => stats.idle);
    gauge('db_pool_waiting_requests', 'Queries waiting for a PostgreSQL connection (the pool is at its size).', (stats) => stats.waiting);
  }
}

/** `sender`, each code it does not deliver counted; without metrics, `sender` itself. */
export function countingFailures(sender: CodeSender, metrics: Metrics | undefined): CodeSender {
  if (!metrics) return sender;
  return {
    async send(cellphone, code, expiresAt) {
      try {
        await sender.send(cellphone, code, expiresAt);
      } catch (error) {
        metrics.codeNotSent();
        throw error;
      }
    },
  };
}
