/**
 * GET /metrics in the Prometheus text format, when METRICS=true: requests by route and status,
 * their latency, and the -2005 refusals. Each app has its own registry, so two apps in one
 * process (the tests) never share or clash over a metric.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry } from 'prom-client';

export const METRICS_PATH = '/metrics';

/** Phones on slow networks wait seconds; a read from a warm database takes milliseconds. */
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type MetricsHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** Counts every answer of `app`; answers the handler that serves the registry's text. */
export function installMetrics(app: FastifyInstance): MetricsHandler {
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

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, not the path: ids in paths (and probes of paths that do not exist) would make a label per request.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    // Only a -2005 is answered 200 with Retry-After (the 503s carry it with their own status).
    if (reply.statusCode === 200 && reply.hasHeader('retry-after')) refusals.inc({ route });
  });

  return async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics());
}
