/**
 * What probes ask: GET /healthz (the process is alive and answers) and GET /readyz (it may be
 * sent requests: started, not stopping, and its database answers a query in time). Both answer
 * the envelope, 200 or 503, never the page. The process listens before its database is
 * reached (boot.ts), so while it starts /readyz says so, and any other request waits for the
 * start (at most STARTING_HOLD_MS) instead of reaching a database without its tables. While the
 * demo is seeded (the tables are there, the community not yet) only API calls wait: pages and
 * files are answered at once, the page as the app shell without its first screen.
 *
 * Every other path under /serv, /healthz, /readyz and /metrics names a call that does not
 * exist: 404 envelope, so a probe or a scraper pointed at the wrong path never gets the page.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail, ok } from '#shared/envelope.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../db/client.ts';
import { RETRY_AFTER_SECONDS } from './error-handler.ts';
import { METRICS_PATH, type Metrics } from './metrics.ts';
import { isApiPath } from './static-client.ts';

/**
 * Where the process is in its life: starting (its database not reached yet), migrating (reached;
 * its tables brought up to date), seeding (the demo written into an empty database), ready,
 * stopping (a signal came: it still answers what it has, while load balancers take it out).
 */
export type Phase = 'starting' | 'migrating' | 'seeding' | 'ready' | 'stopping';

/** The phase of one process: boot.ts moves it along, /readyz and the start's hold read it. */
export class Readiness {
  #phase: Phase;
  #startOver!: () => void;
  /** Settles once the start is over: ready, or stopping before it was. */
  readonly #started = new Promise<void>((resolve) => (this.#startOver = resolve));

  constructor(phase: Phase = 'ready') {
    this.#phase = phase;
    if (!this.starting) this.#startOver();
  }

  get phase(): Phase {
    return this.#phase;
  }

  /** Before ready: API calls wait (and, before the seed, every request but the probes). */
  get starting(): boolean {
    return this.#phase === 'starting' || this.#phase === 'migrating' || this.#phase === 'seeding';
  }

  /** Moves to `phase`; a stopping process never becomes ready again. */
  enter(phase: Phase): void {
    if (this.#phase === 'stopping') return;
    this.#phase = phase;
    if (!this.starting) this.#startOver();
  }

  /** Whether the process is ready, waiting up to `waitMs` for its start to end. */
  async readyWithin(waitMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
    await Promise.race([this.#started, timedOut]);
    clearTimeout(timer);
    return this.#phase === 'ready';
  }
}

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
/** Paths no page or file has: what no route there answers is a call that does not exist. */
const RESERVED_PATHS = ['/serv', '/serv/*', `${HEALTH_PATH}/*`, `${READY_PATH}/*`, METRICS_PATH, `${METRICS_PATH}/*`];

/** Shorter than a probe's usual timeout (Kubernetes: 1 s), so the probe hears why. */
export const READY_QUERY_TIMEOUT_MS = 800;
/** How long a request sent while the process starts waits for it before it is answered 503. */
export const STARTING_HOLD_MS = 10_000;

const NOT_READY: Record<Exclude<Phase, 'ready'>, string> = {
  starting: '服务未就绪：正在连接数据库',
  migrating: '服务未就绪：正在更新数据库',
  seeding: '服务未就绪：正在写入演示数据',
  stopping: '服务未就绪：正在停止',
};

/** Whether the database answers `select 1` within `timeoutMs`; a query still running then is left to finish. */
async function databaseAnswers(db: Db, timeoutMs: number): Promise<'yes' | 'failed' | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), timeoutMs)));
  const query = db.execute(sql`select 1`).then(
    () => 'yes' as const,
    () => 'failed' as const,
  );
  try {
    return await Promise.race([query, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function answerNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send(fail(ErrorCode.NotFound, `接口不存在：${request.method} ${request.url.split('?')[0]}`));
}

export interface HealthOptions {
  db: Db;
  readiness: Readiness;
  /** Serves GET /metrics to the peers it may go to; to others, and without it, /metrics is a 404 like the other reserved paths. */
  serveMetrics?: Metrics['serve'] | undefined;
}

export function registerHealth(app: FastifyInstance, { db, readiness, serveMetrics }: HealthOptions): void {
  // Probes come every few seconds: their lines would drown the log; failures still show.
  const probe = { schema: { hide: true }, logLevel: 'warn' as const };
  app.get(HEALTH_PATH, probe, async () => ok({ status: 'alive', phase: readiness.phase }));
  app.get(READY_PATH, probe, async (request, reply) => {
    const phase = readiness.phase;
    if (phase !== 'ready') return reply.status(503).send(fail(ErrorCode.Internal, NOT_READY[phase]));
    const answer = await databaseAnswers(db, READY_QUERY_TIMEOUT_MS);
    if (answer === 'yes') return ok({ status: 'ready' });
    request.log.warn(`readiness: the database ${answer === 'failed' ? 'failed' : 'did not answer in time'}`);
    return reply.status(503).send(fail(ErrorCode.Internal, answer === 'failed' ? '服务未就绪：数据库无法访问' : '服务未就绪：数据库响应超时'));
  });

  for (const path of RESERVED_PATHS) {
    const handler =
      path === METRICS_PATH && serveMetrics
        ? (request: FastifyRequest, reply: FastifyReply) =>
            (request.method === 'GET' ? serveMetrics(request, reply) : undefined) ?? answerNotFound(request, reply)
        : answerNotFound;
    app.all(path, { schema: { hide: true } }, handler);
  }

  // A stopping process closes each connection after its answer: a kept-alive one would be
  // reused for requests it may no longer take, and would hold the stop until its idle timeout.
  app.addHook('onSend', async (_request, reply) => {
    if (readiness.phase === 'stopping') reply.header('connection', 'close');
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!readiness.starting || request.routeOptions.url === HEALTH_PATH || request.routeOptions.url === READY_PATH) return;
    // The tables exist while the demo is seeded: a page (the shell) and the files need nothing of it.
    if (readiness.phase === 'seeding' && !isApiPath(request.url)) return;
    if (await readiness.readyWithin(STARTING_HOLD_MS)) return;
    return reply
      .status(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send(fail(ErrorCode.Internal, readiness.phase === 'stopping' ? '服务正在停止，请稍后重试' : '服务正在启动，请稍后重试'));
  });
}
