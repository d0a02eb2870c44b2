/**
 * Builds the Fastify app from its parts; it never listens (main.ts does), so tests drive it
 * with inject() against any database.
 */
import type { Agent } from 'node:https';
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { checkedSerializerCompiler } from './http/serializer.ts';
import { z } from 'zod';
import { fail } from '#shared/envelope.ts';
import { ErrorCode } from '#shared/errors.ts';
import { BASE64_BODY_HEADER, BASE64_BODY_VALUE, DEVICE_ID_HEADER, routes, TICKET_COOKIE, TICKET_HEADER } from '#shared/endpoints.ts';
import { clientConfigOf, releaseVersion, type Config } from './config.ts';
import type { Db, PoolStats, QueryObserver } from './db/client.ts';
import { configuredCodeSender } from './services/code-senders.ts';
import type { CodeSender } from './services/login.ts';
import { authPlugin } from './http/auth.ts';
import { connectionOptions, installConnectionCap } from './http/connection-caps.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { Readiness, registerHealth } from './http/health.ts';
import { installInputGuard, parseJsonBody } from './http/input-guard.ts';
import { installRequestLimits } from './http/request-limit-hook.ts';
import { installRequestIdHeader, requestIdOf } from './http/request-id.ts';
import { trustProxyOption } from './http/trust-proxy.ts';
import { countingFailures, installMetrics } from './http/metrics.ts';
import { openApiTransform, openApiTransformObject } from './http/openapi.ts';
import { requestForLog, redactSecrets } from './http/log-redaction.ts';
import { answerClientError, installWebSecurity } from './http/security.ts';
import { registerStaticClient } from './http/static-client.ts';
import { installPendingLogout } from './http/ticket-cookie.ts';
import { registerRoutes } from './routes/index.ts';
import { LiveHub } from './services/live.ts';
import { PushSender } from './services/push.ts';
import { clearExpiredEvery, type CleanupTimes } from './services/once.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live streams of this process: boot.ts has it hear the database once it is migrated. */
    live: LiveHub;
    /** Pushes new notices to subscribed devices. */
    push: PushSender;
  }
}

// A bad body's message names the field in words a user of the platform reads: zod's own
// messages (a wrong type, a missing field) in Chinese; the contract's own messages are Chinese already.
z.config(z.locales.zhCN());

export interface AppOptions {
  config: Config;
  db: Db;
  /** Fastify logger; off in tests (or a stream of its own, to read its lines). */
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
  /** Serve the built client from config.clientDir (off for API-only tests). */
  serveClient?: boolean;
  /** Where login codes go; default: the configured one (services/code-senders.ts). */
  codeSender?: CodeSender;
  /** The process's phase, told by /readyz (boot.ts moves it along); default: ready. */
  readiness?: Readiness;
  /** The database's connections, for /metrics (Database.poolStats). */
  poolStats?: (() => PoolStats) | undefined;
  /** The HTTPS agent of Web Push sends (a test's, trusting its own push service); default: Node's. */
  pushAgent?: Agent;
  /** The database's queries, for /metrics (Database.observeQueries). */
  observeQueries?: ((observer: QueryObserver) => void) | undefined;
  /** When expired idempotency keys and rate-limit windows are deleted (services/once.ts, clearExpiredEvery); default: every CLEANUP_EVERY_MS. */
  cleanup?: CleanupTimes;
}

export async function buildApp({
  config,
  db,
  logger = false,
  serveClient = true,
  codeSender,
  readiness = new Readiness(),
  poolStats,
  pushAgent,
  observeQueries,
  cleanup,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(config, logger));
  installConnectionCap(app.server, config);
  installRequestIdHeader(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(checkedSerializerCompiler);
  installErrorHandler(app);

  // Phones on slow networks: JSON pages and the app shell travel compressed. Brotli at a low
  // quality costs little CPU per response; gzip for clients without it.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(fastifyCookie);
  // Headers of every answer, CSRF, no source maps (http/security.ts).
  installWebSecurity(app, config);
  await registerOpenApi(app, config);

  installBodyDecoders(app);

  // Probes, and the hold of requests while the process starts: before any hook that reads the database.
  const metrics =
    config.metrics || config.metricsAllow.length > 0
      ? installMetrics(app, { public: config.metrics, allow: config.metricsAllow, poolStats, observeQueries, version: releaseVersion() })
      : undefined;
  registerHealth(app, { db, readiness, serveMetrics: metrics?.serve });
  installInputGuard(app);
  installPendingLogout(app, db, config);
  await app.register(authPlugin, { db });
  installRequestLimits(app, db, config);
  // Every call of the contract and every other path, from one map (routes/index.ts).
  const live = new LiveHub();
  app.decorate('live', live);
  const push = new PushSender(db, config, app.log, pushAgent);
  live.onEvent((event) => push.heard(event));
  app.decorate('push', push);
  const stopCleanup = clearExpiredEvery(db, cleanup);
  // Open streams end before the server waits for its requests to finish; the database is heard no more.
  app.addHook('preClose', async () => {
    push.stop();
    await Promise.all([live.close(), stopCleanup()]);
  });
  await registerRoutes(app, {
    db,
    config,
    live,
    push,
    codeSender: countingFailures(codeSender ?? configuredCodeSender(config, app.log), metrics),
    ...(metrics ? { onReplay: metrics.replayed } : {}),
  });
  await registerStaticClient(app, {
    dir: serveClient ? config.clientDir : undefined,
    config: clientConfigOf(config),
    firstScreenBudget: { readWaitMs: config.firstScreenReadWaitMs, renderLimitMs: config.firstScreenRenderLimitMs },
    firstScreenNow: () => readiness.phase !== 'seeding',
  });
  return app;
}

/** Fastify's own options: the logger (without secrets), request ids, deadlines, and its refusals as the envelope. */
function fastifyOptions(config: Config, logger: NonNullable<AppOptions['logger']>): FastifyServerOptions {
  return {
    logger:
      logger === false
        ? false
        : {
            ...(logger === true ? { level: config.logLevel } : logger),
            serializers: { req: requestForLog },
            // Every line, whatever it carries (a URL, headers, a body, an error), without secrets.
            hooks: { streamWrite: redactSecrets },
          },
    trustProxy: trustProxyOption(config.trustProxy),
    // The header is read by genReqId itself (Fastify would take any value it carries).
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Deadlines for every connection (http/connection-caps.ts).
    ...connectionOptions(config),
    // Node's own refusals (headers over 16 KiB, a malformed request) answer the envelope too.
    clientErrorHandler: answerClientError,
    bodyLimit: 1024 * 1024,
    // The router's own refusals answer the envelope too, never Fastify's plain JSON (or a 414):
    // a path parameter longer than the router takes (an /img id of 200 characters) names nothing
    // that exists; a path that does not decode (%zz) is a bad request.
    frameworkErrors: (error, _request, frameworkReply) => {
      const reply = frameworkReply as unknown as FastifyReply;
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.status(404).send(fail(ErrorCode.NotFound, '内容不存在：地址过长'));
      return reply.status(200).send(fail(ErrorCode.BadRequest, '请求地址无效'));
    },
  };
}

/** The OpenAPI document of the contract, built from the routes as they register (its pages: routes/index.ts). */
async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${config.providerName}社区 API`,
        version: '1.0.0',
        description:
          'Every call answers the envelope {code:0,data} or {code:-1,error:{code,msg}}; each answer lists the error codes it may carry.',
      },
      components: {
        securitySchemes: {
          ticketCookie: { type: 'apiKey', in: 'cookie', name: TICKET_COOKIE },
          ticketHeader: { type: 'apiKey', in: 'header', name: TICKET_HEADER, description: `with ${DEVICE_ID_HEADER}` },
        },
      },
    },
    // Names, shared shapes and every answer of each call (http/openapi.ts).
    transform: openApiTransform,
    transformObject: openApiTransformObject,
  });
}

/** Bodies that come in another form than JSON, turned into it before they are validated. */
function installBodyDecoders(app: FastifyInstance): void {
  // The note update call sends base64 of its JSON body, marked by a header.
  app.addHook('preValidation', async (request) => {
    if (request.headers[BASE64_BODY_HEADER] !== BASE64_BODY_VALUE || typeof request.body !== 'string') return;
    request.body = parseJsonBody(Buffer.from(request.body, 'base64'), '请求体不是有效的 base64 JSON');
  });
  // A tracking batch sent by navigator.sendBeacon as the page goes is JSON in a text/plain body
  // (a type that needs no CORS preflight, which a leaving page cannot wait for).
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.url !== routes.collect.path || typeof request.body !== 'string') return;
    request.body = parseJsonBody(request.body);
  });
}
