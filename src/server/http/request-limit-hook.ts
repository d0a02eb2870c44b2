/**
 * The hook that applies the general request limits (counted by services/limits/request-counter.ts)
 * to every API call (/serv/, /wxmisc/): per client address before the body is read, and per
 * user once the ticket is known, for the calls that look at the
 * caller (auth optional or required, and the image upload). Pictures (/img, cached for a year
 * by browsers), the page, its files and the docs are not counted. Beyond either: -2005 请求频繁.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routes, OTHER_PATHS } from '#shared/endpoints.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { tooFrequent } from '../errors.ts';
import { SharedWindowCounter } from '../services/limits/request-counter.ts';

const LIMITED_PREFIXES = ['/serv/', '/wxmisc/'];

/** Paths whose handlers resolve the caller (so counting per user costs no extra lookup). */
const PATHS_WITH_CALLER = new Set<string>([
  ...Object.values(routes)
    .filter((route) => route.auth !== 'none')
    .map((route) => route.path),
  OTHER_PATHS.uploadImage,
]);

const isLimited = (request: FastifyRequest) => LIMITED_PREFIXES.some((prefix) => request.url.startsWith(prefix));

export function installRequestLimits(app: FastifyInstance, db: Db, config: Pick<Config, 'requestLimitPerAddress' | 'requestLimitPerUser'>): void {
  const counter = new SharedWindowCounter(db, 60);
  app.addHook('onClose', () => counter.close());

  app.addHook('onRequest', async (request) => {
    if (!isLimited(request)) return;
    const key = `requests:ip:${request.ip}`;
    if (!(await counter.hit(key, config.requestLimitPerAddress))) throw tooFrequent(counter.remainingMs(key));
  });

  app.addHook('preValidation', async (request) => {
    if (!isLimited(request) || !PATHS_WITH_CALLER.has(request.routeOptions.url ?? '') || !request.credentials()) return;
    // A ticket ended by the 452 mutex is the handler's to answer.
    const viewer = await request.resolveViewer().catch(() => null);
    if (!viewer) return;
    const key = `requests:user:${viewer.userId}`;
    if (!(await counter.hit(key, config.requestLimitPerUser))) throw tooFrequent(counter.remainingMs(key));
  });
}
