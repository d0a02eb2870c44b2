/**
 * GET /metrics in the Prometheus text format, to the addresses of METRICS_ALLOW when it is set
 * (METRICS on or off), else to anyone with METRICS=true: requests by route and status, their latency, the -2005 refusals, the
 * database pool and the replayed writes. Each app has its own registry, so two apps in one
 * process (the tests) never share or clash over a metric.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { routes, type EndpointName } from '#shared/endpoints.ts';
import type { PoolStats } from '../db/client.ts';
import { addressMatcher } from '../address-ranges.ts';

export const METRICS_PATH = '/metrics';

/** Phones on slow networks wait seconds; a read from a warm database takes milliseconds. */
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions {
  /** METRICS=true: every peer is served, unless `allow` names some. */
  public: boolean;
  /** METRICS_ALLOW: when set, the only peers served. */
  allow: readonly string[];
  /** The database's connections now (PostgreSQL's pool; PGlite has none to tell). */
  poolStats?: (() => PoolStats) | undefined;
}

export interface Metrics {
  /** Answers the registry's text to a peer it may go to; undefined: the caller answers 404 as for any other. */
  serve(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined;
  /** A write came with a client_id already answered (services/once.ts): an outbox sent it again. */
  replayed(endpoint: EndpointName): void;
}

/** Counts every answer of `app`; answers what serves the registry's text and takes the replays. */
export function installMetrics(app: FastifyInstance, options: MetricsOptions): Metrics {
  const registry = new Registry();
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
  const { poolStats } = options;
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
    gauge('db_pool_connections', 'PostgreSQL connections the pool holds open, lent or idle.', (stats) => stats.total);
    gauge('db_pool_connections_idle', 'PostgreSQL connections open and not lent to a request.', (stats) => stats.idle);
    gauge('db_pool_waiting_requests', 'Queries waiting for a PostgreSQL connection (the pool is at its size).', (stats) => stats.waiting);
  }

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
  };
}
