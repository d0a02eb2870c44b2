/**
 * Request ids: each request is known by the X-Request-Id a proxy or a client sent, when it is a
 * short safe token, or by a random UUID; the id is in every log line of the request (reqId) and
 * in its answer's X-Request-Id, so a user's report or a proxy's log leads to the server's lines.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id may be: anything else (long, spaces, quotes, newlines) could forge or bloat log lines. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the incoming id if safe, else a new one (unique across processes and restarts). */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Every answer carries its request's id, refusals and errors included. */
export function installRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
