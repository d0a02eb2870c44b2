/**
 * Who is calling: the ticket comes from the httpOnly cookie (browsers) or from the Ticket and
 * Device-Id headers (mini-program, native app). Resolved lazily, once per request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DEVICE_ID_HEADER, HTTP_LOGGED_IN_ELSEWHERE, TICKET_COOKIE, TICKET_HEADER } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../db/client.ts';
import { BusinessError } from '../errors.ts';
import { lookupTicket, type Viewer } from '../services/sessions.ts';

export type { Viewer };

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in caller, or null; throws LoggedInElsewhere for a ticket ended by the login mutex. */
    resolveViewer(): Promise<Viewer | null>;
    /** The raw ticket the request carries, if any. */
    ticket(): string | undefined;
  }
}

/** Answered with HTTP 452: the ticket was ended by a login on another device of the same kind. */
export class LoggedInElsewhere extends BusinessError {
  constructor() {
    super(ErrorCode.Relogin, '您的账号已在其他同类设备登录', HTTP_LOGGED_IN_ELSEWHERE);
  }
}

const viewerCache = new WeakMap<FastifyRequest, Promise<Viewer | null>>();

export const authPlugin = fp(async (app: FastifyInstance, options: { db: Db }) => {
  app.decorateRequest('ticket', function (this: FastifyRequest) {
    const header = this.headers[TICKET_HEADER];
    const fromHeader = Array.isArray(header) ? header[0] : header;
    if (fromHeader && this.headers[DEVICE_ID_HEADER]) return fromHeader;
    return this.cookies[TICKET_COOKIE] || undefined;
  });
  app.decorateRequest('resolveViewer', function (this: FastifyRequest) {
    let pending = viewerCache.get(this);
    if (!pending) {
      pending = resolve(options.db, this.ticket());
      viewerCache.set(this, pending);
    }
    return pending;
  });
});

async function resolve(db: Db, ticket: string | undefined): Promise<Viewer | null> {
  if (!ticket) return null;
  const found = await lookupTicket(db, ticket);
  if (found.state === 'ended-elsewhere') throw new LoggedInElsewhere();
  return found.state === 'valid' ? found.viewer : null;
}
