/**
 * Exactly-once writes (DESIGN.md section 3). A write that carries a `client_id` claims the key
 * (user, endpoint, client_id) in the same transaction as its effect, and stores the answer
 * with a hash of the request; a replay answers the stored answer, and a replay with another
 * body answers -1009. The key is claimed first, so concurrent replays wait for the first
 * transaction on the unique index and then read its answer: five at once make one comment.
 *
 * Every write also counts against the user's per-minute write limit, except a replay of a key
 * already answered.
 *
 *   const write = writer(db, config);
 *   commentAdd: ({ input, viewer }) =>
 *     write({ endpoint: 'commentAdd', userId: viewer.userId, input }, (tx) => addComment(tx, viewer.userId, input, config.dailyCommentLimit)),
 *
 * post/add takes the same path, with hitDailyCap (limits.ts) inside its effect.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { EndpointName } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../db/client.ts';
import { idempotencyKeys, rateLimits } from '../db/schema.ts';
import { BusinessError } from '../errors.ts';
import { hitWriteLimit } from './limits.ts';

/** Keys are kept at least this long; older ones are deleted now and then. */
export const IDEMPOTENCY_KEEP_HOURS = 24;
/** Roughly one write in this many also cleans up expired keys and rate-limit windows. */
const CLEANUP_EVERY = 64;

export interface WriteCall {
  endpoint: EndpointName;
  userId: number;
  /** The validated input; its client_id (if any) is the key, the rest is hashed. */
  input: { client_id?: string | undefined };
}

export interface WriteLimits {
  writeLimitPerMinute: number;
}

/** Told when a write's client_id was already answered: a replay, answered from the stored answer (or -1009). */
export type OnReplay = (endpoint: EndpointName) => void;

/** A JSON text with object keys sorted, so equal inputs hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(input: WriteCall['input']): string {
  const { client_id: _clientId, ...body } = input;
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** The stored answer of a key, or -1009 when the replay's body differs from the original's. */
function replayOf<T>(row: { requestHash: string; result: unknown }, hash: string): T {
  if (row.requestHash !== hash) throw new BusinessError(ErrorCode.IdempotencyMismatch);
  return row.result as T;
}

async function findKey(db: Db, call: WriteCall, clientId: string) {
  const [row] = await db
    .select({ requestHash: idempotencyKeys.requestHash, result: idempotencyKeys.result })
    .from(idempotencyKeys)
    .where(
      and(eq(idempotencyKeys.userId, call.userId), eq(idempotencyKeys.kind, call.endpoint), eq(idempotencyKeys.clientId, clientId)),
    )
    .limit(1);
  return row;
}

/** Runs one write of a user: exactly once per client_id when one is given, within the write limit. */
export function writer(db: Db, limits: WriteLimits, onReplay: OnReplay = () => undefined) {
  return async function write<T>(call: WriteCall, effect: (tx: Db) => Promise<T>): Promise<T> {
    const clientId = call.input.client_id;
    const hash = requestHash(call.input);
    if (clientId !== undefined) {
      const answered = await findKey(db, call, clientId);
      if (answered) {
        onReplay(call.endpoint);
        return replayOf<T>(answered, hash);
      }
    }
    await hitWriteLimit(db, call.userId, limits.writeLimitPerMinute);
    const result = await db.transaction(async (tx) => {
      if (clientId === undefined) return effect(tx);
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ userId: call.userId, kind: call.endpoint, clientId, requestHash: hash, result: sql`'null'::jsonb` })
        .onConflictDoNothing()
        .returning({ one: sql<number>`1` });
      if (claimed.length === 0) {
        // A concurrent request with this key committed first (we waited for it on the index).
        const answered = await findKey(tx, call, clientId);
        if (!answered) throw new Error('idempotency key vanished');
        onReplay(call.endpoint);
        return replayOf<T>(answered, hash);
      }
      const data = await effect(tx);
      await tx
        .update(idempotencyKeys)
        .set({ result: sql`${JSON.stringify(data)}::jsonb` })
        .where(
          and(eq(idempotencyKeys.userId, call.userId), eq(idempotencyKeys.kind, call.endpoint), eq(idempotencyKeys.clientId, clientId)),
        );
      return data;
    });
    if (Math.random() < 1 / CLEANUP_EVERY) await cleanupExpired(db).catch(() => undefined);
    return result;
  };
}

/**
 * Deletes idempotency keys older than IDEMPOTENCY_KEEP_HOURS (never a younger one) and
 * rate-limit windows that ended long ago (an ended window counts as no row at all). A bounded
 * batch each time, so no write waits long for it.
 */
export async function cleanupExpired(db: Db, batch = 500): Promise<{ keys: number; windows: number }> {
  const keys = await db.execute(sql`delete from ${idempotencyKeys} where ctid in (
    select ctid from ${idempotencyKeys}
    where ${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS}) limit ${batch})`);
  // Every window in use is at most two days long (daily caps); login windows are shorter.
  const windows = await db.execute(sql`delete from ${rateLimits} where ctid in (
    select ctid from ${rateLimits} where ${rateLimits.windowStart} < now() - interval '3 days' limit ${batch})`);
  return { keys: affected(keys), windows: affected(windows) };
}

function affected(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}
