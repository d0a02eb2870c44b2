/**
 * Tickets: 256 random bits handed to the client once, stored only as a sha256 hash. A login
 * ends the user's other ticket of the same device kind ("mutex", one login of a user at a time,
 * on any number of API processes); a request carrying such a
 * ticket is told so with HTTP 452, while unknown or expired tickets are simply logged out.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { hexDigest, preparedStatement, queryPrepared, type HexDigest } from '../db/prepared.ts';
import { pushSubscriptions, tickets, users } from '../db/schema.ts';

export const TICKET_TTL_MS = 30 * 24 * 3600 * 1000;

export type DeviceKind = 'pc' | 'mobile';

/** How a ticket travels: a browser's as its httpOnly cookie, an app's as the Ticket header beside its Device-Id. */
export type TicketVia = 'cookie' | 'headers';

export interface Viewer {
  userId: number;
  ticketId: number;
  deviceKind: DeviceKind;
  /**
   * Set when the ticket was found live by an earlier request, not looked up for this one: its
   * hash, for the statement that reads with this viewer to find it still live (services/posts.ts),
   * which throws StaleTicket when it is not.
   */
  ticketCheck?: HexDigest;
}

/**
 * The ticket a viewer was remembered by is no longer live (logged out, ended by a login
 * elsewhere, expired): the request is answered again after a fresh lookup (http/define-endpoint.ts).
 */
export class StaleTicket extends Error {
  constructor() {
    super('the remembered ticket is no longer live');
  }
}

/** The part of a ticket's row a statement checks (services/posts.ts): live, and still the user's. */
export const TICKET_LIVE_SQL = (hash: string, userId: string) =>
  `exists (select from tickets where token_hash = ${hash} and user_id = ${userId} and ended_reason is null and expires_at > now())`;

const ticketLive = preparedStatement('ticket_live', ['text', 'int'], `select ${TICKET_LIVE_SQL('$1', '$2')} as live`);

/**
 * Whether the viewer's ticket is live: asked of the database only for a viewer remembered by it
 * (ticketCheck), by a call whose own statement does not check it.
 */
export async function ticketStillLive(db: Db, viewer: Pick<Viewer, 'userId' | 'ticketCheck'>): Promise<boolean> {
  if (viewer.ticketCheck === undefined) return true;
  const [row] = await queryPrepared<{ live: boolean }>(db, ticketLive, [viewer.ticketCheck, viewer.userId]);
  return row?.live === true;
}

/**
 * After a statement that checked the viewer's remembered ticket (TICKET_LIVE_SQL) answered no
 * rows: there were none, or the ticket is no longer live. The ticket alone is asked after (the
 * statement is not run again); StaleTicket has the request answered again after a lookup.
 */
export async function refuseEndedTicket(db: Db, viewer: Pick<Viewer, 'userId' | 'ticketCheck'> | null, rowCount: number): Promise<void> {
  if (rowCount === 0 && viewer && !(await ticketStillLive(db, viewer))) throw new StaleTicket();
}

/**
 * What a ticket is now; a live or mutex-ended one with the device it was issued to and the way it
 * was handed out (null: issued before that was kept).
 */
export type TicketLookup =
  | { state: 'valid'; viewer: Viewer; deviceId: string; issuedVia: TicketVia | null; expiresAt: number }
  | { state: 'ended-elsewhere'; deviceId: string; issuedVia: TicketVia | null }
  | { state: 'none' };

/**
 * Whether a ticket is carried the way it was handed out: a browser's only as the cookie, an app's
 * only as the header with the Device-Id it was issued to, so a ticket copied off its device (as a
 * cookie, or with another Device-Id) logs nobody in. One issued before the way was kept: either.
 */
export function carriedAsIssued(
  ticket: { deviceId: string; issuedVia: TicketVia | null },
  carried: { via: 'cookie' } | { via: 'headers'; deviceId: string },
): boolean {
  if (carried.via === 'headers') return ticket.issuedVia !== 'cookie' && ticket.deviceId === carried.deviceId;
  return ticket.issuedVia !== 'headers';
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function issueTicket(
  db: Db,
  params: { userId: number; deviceKind: DeviceKind; deviceId: string; via: TicketVia },
): Promise<{ ticket: string; expiresAt: Date }> {
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + TICKET_TTL_MS);
  await db.transaction(async (tx) => {
    // One login of a user at a time: under READ COMMITTED two logins could each end the other
    // tickets (seeing none of each other's) and then both insert one. Locking the user's row
    // first makes the second wait, and then end the first one's ticket.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, params.userId)).for('update');
    await tx
      .update(tickets)
      .set({ endedAt: new Date(), endedReason: 'mutex' })
      .where(
        and(
          eq(tickets.userId, params.userId),
          eq(tickets.deviceKind, params.deviceKind),
          isNull(tickets.endedAt),
          gt(tickets.expiresAt, new Date()),
        ),
      );
    await tx.insert(tickets).values({
      userId: params.userId,
      tokenHash: hashToken(ticket),
      deviceId: params.deviceId,
      deviceKind: params.deviceKind,
      issuedVia: params.via,
      expiresAt,
    });
  });
  return { ticket, expiresAt };
}

/**
 * Every logged-in request looks its ticket up: a prepared statement (db/prepared.ts), parsed and
 * planned once per connection, not on every call as a query built anew is (on PGlite that was
 * about a sixth of a logged-in feed page's CPU, tests/bench).
 */
const TICKET_BY_HASH = preparedStatement(
  'ticket_by_hash',
  ['text'],
  'select id, user_id, device_kind, expires_at, ended_reason, device_id, issued_via from tickets where token_hash = $1 limit 1',
);

interface TicketRow {
  id: number | string;
  user_id: number;
  device_kind: DeviceKind;
  expires_at: Date | string;
  ended_reason: 'mutex' | 'logout' | 'deleted' | null;
  device_id: string;
  issued_via: TicketVia | null;
}

export async function lookupTicket(db: Db, token: string): Promise<TicketLookup> {
  const [row] = await queryPrepared<TicketRow>(db, TICKET_BY_HASH, [hexDigest(hashToken(token))]);
  // An expired ticket is plainly logged out, whatever ended it afterwards.
  const expiresAt = row ? new Date(row.expires_at).getTime() : 0;
  if (!row || expiresAt <= Date.now()) return { state: 'none' };
  if (row.ended_reason === 'mutex') return { state: 'ended-elsewhere', deviceId: row.device_id, issuedVia: row.issued_via };
  if (row.ended_reason) return { state: 'none' };
  return {
    state: 'valid',
    viewer: { userId: row.user_id, ticketId: Number(row.id), deviceKind: row.device_kind },
    deviceId: row.device_id,
    issuedVia: row.issued_via,
    expiresAt,
  };
}

/**
 * Ends a ticket for good (logout, or the client's image-style ticket delete after a 452), and with
 * it the device's push subscriptions: a shared device gets nothing of the user who left.
 */
export async function endTicket(db: Db, token: string, reason: 'logout' | 'deleted'): Promise<void> {
  const ended = await db
    .update(tickets)
    .set({ endedAt: new Date(), endedReason: reason })
    .where(eq(tickets.tokenHash, hashToken(token)))
    .returning({ id: tickets.id });
  if (ended.length > 0) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.ticketId, ended.map((ticket) => ticket.id)));
}

/**
 * The image-style ticket delete (a GET any page can make the browser send): it may end a live
 * ticket only when the query names it and the caller is its device (it carries that very
 * ticket, as the cookie or as headers with its Device-Id, or sends that Device-Id), from a page
 * of this site. A ticket the 452 mutex ended already is dead: naming it, or carrying it, marks
 * it deleted so that it answers plainly logged out. Anything else changes nothing.
 */
export async function endTicketByImageCall(
  db: Db,
  named: string | undefined,
  caller: { ticket?: string | undefined; deviceId?: string | undefined; fromThisSite: boolean },
): Promise<void> {
  const target = named ?? caller.ticket;
  if (!target) return;
  const found = await lookupTicket(db, target);
  if (found.state === 'ended-elsewhere') return endTicket(db, target, 'deleted');
  if (found.state !== 'valid' || named === undefined || !caller.fromThisSite) return;
  const sameDevice = caller.deviceId === undefined ? named === caller.ticket : caller.deviceId === found.deviceId;
  if (sameDevice) await endTicket(db, target, 'deleted');
}
