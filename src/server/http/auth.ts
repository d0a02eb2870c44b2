/**
 * Who is calling: the ticket comes from the httpOnly cookie (browsers) or from the Ticket and
 * Device-Id headers (mini-program, native app). Resolved lazily, once per request. A ticket is
 * taken only the way it was handed out (services/sessions.ts, carriedAsIssued): a browser's as the
 * cookie, an app's as headers with the Device-Id it was issued to. Any other way it is no ticket
 * at all (a ticket copied off one device, as a cookie or with another Device-Id, logs nobody in).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DEVICE_ID_HEADER, HTTP_LOGGED_IN_ELSEWHERE, routes, TICKET_COOKIE, TICKET_HEADER } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../db/client.ts';
import { onWriteConnection } from '../db/transaction.ts';
import { BusinessError } from '../errors.ts';
import { hexDigest, type HexDigest } from '../db/prepared.ts';
import { carriedAsIssued, hashToken, lookupTicket, type TicketVia, type Viewer } from '../services/sessions.ts';

export type { Viewer };

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in caller, or null; throws LoggedInElsewhere for a ticket ended by the login mutex. */
    resolveViewer(): Promise<Viewer | null>;
    /** The caller looked up afresh, after a statement found the remembered ticket no longer live (StaleTicket). */
    resolveViewerAfresh(): Promise<Viewer | null>;
    /** The raw ticket the request carries, if any. */
    ticket(): string | undefined;
    /** The ticket the request carries and how: as the cookie, or as headers with the device it claims. */
    credentials(): Credentials | undefined;
  }
}

/** Answered with HTTP 452: the ticket was ended by a login on another device of the same kind. */
export class LoggedInElsewhere extends BusinessError {
  constructor() {
    super(ErrorCode.Relogin, '您的账号已在其他同类设备登录', HTTP_LOGGED_IN_ELSEWHERE);
  }
}

export type Credentials = { ticket: string; via: 'cookie' } | { ticket: string; via: 'headers'; deviceId: string };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const viewerCache = new WeakMap<FastifyRequest, Promise<Viewer | null>>();

/** The calls that write: their ticket is looked up on a connection taken for the write, not behind the reads. */
const WRITE_PATHS = new Set<string>(
  Object.values(routes)
    .filter((route) => route.kind === 'write')
    .map((route) => route.path),
);

/**
 * The calls whose first statement also finds the caller's ticket still live: the reads of posts
 * (services/posts.ts), search (services/search.ts), the notices (services/notices.ts) and the
 * writes made most (the writer's, services/once.ts). For them a ticket
 * found live by an earlier request is taken as it was, without a lookup of its own, and the
 * statement's check stands for it (StaleTicket when it fails). Every other call looks its ticket
 * up, so a logout or a login elsewhere, on any process, ends it at once.
 */
const CHECKED_IN_STATEMENT = new Set<string>([
  routes.channelPosts.path,
  routes.topicPosts.path,
  routes.userPosts.path,
  routes.postDetail.path,
  routes.search.path,
  routes.noticeList.path,
  routes.likeAdd.path,
  routes.likeCancel.path,
  routes.commentAdd.path,
  routes.postAdd.path,
]);

interface KnownTicket {
  viewer: Viewer;
  deviceId: string;
  issuedVia: TicketVia | null;
  expiresAt: number;
  hash: HexDigest;
}

/** Live tickets seen lately, by ticket, per database (apps on different test databases share a process); at most MAX_KNOWN_TICKETS. */
const knownTickets = new WeakMap<Db, Map<string, KnownTicket>>();
const MAX_KNOWN_TICKETS = 100_000;

function knownOf(db: Db): Map<string, KnownTicket> {
  let known = knownTickets.get(db);
  if (!known || known.size >= MAX_KNOWN_TICKETS) {
    known = new Map();
    knownTickets.set(db, known);
  }
  return known;
}

export const authPlugin = fp(async (app: FastifyInstance, options: { db: Db }) => {
  app.decorateRequest('credentials', function (this: FastifyRequest): Credentials | undefined {
    const ticket = first(this.headers[TICKET_HEADER]);
    const deviceId = first(this.headers[DEVICE_ID_HEADER]);
    if (ticket && deviceId) return { ticket, via: 'headers', deviceId };
    const cookie = this.cookies[TICKET_COOKIE];
    return cookie ? { ticket: cookie, via: 'cookie' } : undefined;
  });
  app.decorateRequest('ticket', function (this: FastifyRequest) {
    return this.credentials()?.ticket;
  });
  app.decorateRequest('resolveViewer', function (this: FastifyRequest) {
    let pending = viewerCache.get(this);
    if (!pending) {
      const path = this.routeOptions.url ?? '';
      pending = resolve(options.db, this.credentials(), { remembered: CHECKED_IN_STATEMENT.has(path), onWriteConnection: WRITE_PATHS.has(path) });
      viewerCache.set(this, pending);
    }
    return pending;
  });
  app.decorateRequest('resolveViewerAfresh', function (this: FastifyRequest) {
    const credentials = this.credentials();
    if (credentials) knownOf(options.db).delete(credentials.ticket);
    const pending = resolve(options.db, credentials, { remembered: false, onWriteConnection: false });
    viewerCache.set(this, pending);
    return pending;
  });
});

/** How a call finds its ticket: remembered when live before (CHECKED_IN_STATEMENT), and else looked up on a write's connection or as a read. */
interface Lookup {
  remembered: boolean;
  onWriteConnection: boolean;
}

async function resolve(db: Db, credentials: Credentials | undefined, lookup: Lookup): Promise<Viewer | null> {
  if (!credentials) return null;
  const known = knownOf(db);
  const remembered = lookup.remembered ? known.get(credentials.ticket) : undefined;
  if (remembered && remembered.expiresAt > Date.now()) {
    if (!carriedAsIssued(remembered, credentials)) return null;
    return { ...remembered.viewer, ticketCheck: remembered.hash };
  }
  const found =
    lookup.onWriteConnection ? await onWriteConnection(db, (connection) => lookupTicket(connection, credentials.ticket)) : await lookupTicket(db, credentials.ticket);
  if (found.state === 'none') {
    known.delete(credentials.ticket);
    return null;
  }
  if (found.state === 'valid') {
    const hash = hexDigest(hashToken(credentials.ticket));
    known.set(credentials.ticket, { viewer: found.viewer, deviceId: found.deviceId, issuedVia: found.issuedVia, expiresAt: found.expiresAt, hash });
  } else {
    known.delete(credentials.ticket);
  }
  if (!carriedAsIssued(found, credentials)) return null;
  if (found.state === 'ended-elsewhere') throw new LoggedInElsewhere();
  return found.viewer;
}
