/**
 * Exactly-once writes. A write that carries a `client_id` stores its answer
 * under the key (user, endpoint, client_id) with a hash of the request, in the same transaction
 * as its effect; a replay answers the stored answer, and a replay with another body answers
 * -1009. Concurrent requests with one key meet on the key's unique index: the later ones wait
 * for the first transaction and then answer its answer, so five at once make one comment.
 *
 * Every write also counts against the user's per-minute write limit, except a replay of a key
 * already answered, and is refused (-1014, saying until when) while a moderator has the user
 * suspended: every write of a logged-in user passes here, so none skips it. A replay of a key
 * answered before the suspension still answers its stored answer. Two ways to run a write:
 *
 *   const write = writer(db, config);
 *   // The key claimed first, then the effect, then its answer stored (post/add, votes, deletes...):
 *   postDelete: ({ input, viewer }) =>
 *     write({ endpoint: 'postDelete', viewer, input }, (tx) => deletePost(tx, viewer.userId, input.post_id)),
 *   // The effect's own first statement carries the key, the count and the stored answer
 *   // (onceParts): a write made in one statement is one round trip (comment/add, likes). An
 *   // effect that reads its answer after its statement stores it with once.store (post/add).
 *   commentAdd: ({ input, viewer }) =>
 *     write.inStatement({ endpoint: 'commentAdd', viewer, input }, (db, once) =>
 *       addComment(db, viewer.userId, input, config.dailyCommentLimit, once)),
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { EndpointName } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../db/client.ts';
import { boundText, hexDigest, preparedStatement, queryPrepared, type PreparedValue } from '../db/prepared.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { inTransaction, onWriteConnection } from '../db/transaction.ts';
import { BusinessError, suspended, tooFrequent } from '../errors.ts';
import { addToWindow, windowAfterHit, windowHitText } from './limits/window-counters.ts';
import { StaleTicket, TICKET_LIVE_SQL, ticketStillLive, type Viewer } from './sessions.ts';

/** Keys are kept at least this long; older ones are deleted by each process's housekeeping (clearExpiredEvery). */
export const IDEMPOTENCY_KEEP_HOURS = 24;

/**
 * Who writes: a viewer remembered by its ticket (ticketCheck, http/auth.ts) has the ticket found
 * still live by the write's first statement, and the write refused with StaleTicket when it is not.
 */
export type Writer = Pick<Viewer, 'userId' | 'ticketCheck'>;

export interface WriteCall {
  endpoint: EndpointName;
  viewer: Writer;
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
      and(eq(idempotencyKeys.userId, call.viewer.userId), eq(idempotencyKeys.kind, call.endpoint), eq(idempotencyKeys.clientId, clientId)),
    )
    .limit(1);
  return row;
}

/** The write-limit window of a user: $1 the key, a minute long. */
const WRITE_WINDOW_SECONDS = 60;
const writeWindowKey = (userId: number) => `write:user:${userId}`;

/**
 * Claims the key (user $1, endpoint $2, client_id $3, request hash $4) and, only when claimed,
 * counts the write in the user's window ($5): a replay is never counted. One statement, so a
 * fresh write pays one round trip for both.
 */
const claimAndCount = preparedStatement(
  'write_claim_and_count',
  ['int', 'text', 'text', 'text', 'text'],
  `with claim as (
      insert into idempotency_keys (user_id, kind, client_id, request_hash, result) values ($1, $2, $3, $4, 'null'::jsonb)
      on conflict do nothing returning 1),
    hit as (${windowHitText('$5', String(WRITE_WINDOW_SECONDS), '1', 'from claim')})
    select hit.count, hit.elapsed_ms from (select 1) one left join hit on true`,
);

const storeAnswer = preparedStatement(
  'write_store_answer',
  ['int', 'text', 'text', 'jsonb'],
  'update idempotency_keys set result = $4 where user_id = $1 and kind = $2 and client_id = $3',
);

/** Stores the answer of the write under the key it claimed, in the write's transaction. */
const storeAnswerOf = (tx: Db, call: WriteCall, clientId: string, answer: unknown) =>
  queryPrepared(tx, storeAnswer, [call.viewer.userId, boundText(call.endpoint), boundText(clientId), boundText(JSON.stringify(answer))]);

/**
 * Runs one write of a user: exactly once per client_id when one is given, within the write limit.
 * Everything happens in the write's one transaction on one connection: the claim first, then the
 * count (rolled back with a write refused for any reason, as that write never happened), the
 * effect and its stored answer.
 */
export function writer(db: Db, limits: WriteLimits, onReplay: OnReplay = () => undefined) {
  async function write<T>(call: WriteCall, effect: (tx: Db) => Promise<T>): Promise<T> {
    const clientId = call.input.client_id;
    const hash = requestHash(call.input);
    const userId = call.viewer.userId;
    let fresh = false;
    const result = await inTransaction(
      db,
      async (tx) => {
        // Sent with the claim, in the same trip: a ticket no longer live rolls the claim back, and so
        // does a suspension.
        const ticket = ticketStillLive(tx, call.viewer);
        const claim =
          clientId === undefined ? addToWindow(tx, writeWindowKey(userId), WRITE_WINDOW_SECONDS) : claimed(tx, call, clientId, hash);
        const [live, window, suspension] = await Promise.all([ticket, claim, suspensionOf(tx, userId)]);
        if (!live) throw new StaleTicket();
        if (window === undefined) {
          // Answered before, or by a concurrent request with this key that committed first (the
          // claim waited for it on the unique index).
          const answered = await findKey(tx, call, clientId!);
          if (!answered) throw new Error('idempotency key vanished');
          onReplay(call.endpoint);
          return replayOf<T>(answered, hash);
        }
        if (suspension) throw suspended(suspension.untilMs);
        if (window.count > limits.writeLimitPerMinute) throw tooFrequent(window.remainingMs);
        fresh = true;
        return effect(tx);
      },
      (tx, data) => (fresh && clientId !== undefined ? storeAnswerOf(tx, call, clientId, data) : undefined),
    );
    return result;
  }

  /**
   * The same for an effect that carries the exactly-once part in its own first statement
   * (onceParts): one round trip for a write made in one statement.
   */
  async function inStatement<T>(call: WriteCall, effect: (db: Db, once: OnceCall) => Promise<InStatement<T>>): Promise<T> {
    const clientId = call.input.client_id;
    const hash = requestHash(call.input);
    const { userId, ticketCheck } = call.viewer;
    const windowAndTicket = [boundText(writeWindowKey(userId)), limits.writeLimitPerMinute, ticketCheck ?? null];
    const once: OnceCall =
      clientId === undefined
        ? { keyed: false, values: [userId, ...windowAndTicket], store: () => undefined }
        : {
            keyed: true,
            values: [userId, boundText(call.endpoint), boundText(clientId), hexDigest(hash), ...windowAndTicket],
            store: (tx, answer) => storeAnswerOf(tx, call, clientId, answer),
          };
    let made: InStatement<T>;
    try {
      made = await onWriteConnection(db, (connection) => effect(connection, once));
    } catch (error) {
      if (clientId !== undefined && isKeyTaken(error)) return replay<T>(call, clientId, hash);
      throw error;
    }
    const { once_count: count, once_elapsed_ms: elapsedMs, once_ticket_live: live } = made.outcome;
    if (!live) throw new StaleTicket();
    if (made.outcome.once_suspended) {
      // Nothing was written or counted: a key answered before the suspension still answers, else -1014.
      const answered = clientId === undefined ? undefined : await findKey(db, call, clientId);
      if (!answered) throw suspended(made.outcome.once_suspended_until_ms);
      onReplay(call.endpoint);
      return replayOf<T>(answered, hash);
    }
    if (count === null || elapsedMs === null) return replay<T>(call, clientId!, hash);
    if (count > limits.writeLimitPerMinute) throw tooFrequent(windowAfterHit({ count, elapsed_ms: elapsedMs }, WRITE_WINDOW_SECONDS).remainingMs);
    return made.answer();
  }

  async function replay<T>(call: WriteCall, clientId: string, hash: string): Promise<T> {
    const answered = await findKey(db, call, clientId);
    if (!answered) throw new Error('idempotency key vanished');
    onReplay(call.endpoint);
    return replayOf<T>(answered, hash);
  }

  return Object.assign(write, { inStatement });
}

/**
 * The exactly-once part of a write whose effect is one statement (writer's `inStatement`): CTEs
 * the effect's statement starts with and a stored answer it ends with, so that the whole write is
 * that one statement, committed alone, or the first of its transaction.
 *
 * - once_go has a row when the write may go: its key unanswered (a committed answer makes it a
 *   replay, and the write counts nothing) and the user's write window within the limit. Every
 *   change of the effect is made only from once_go.
 * - once_stored (to be written last, from the effect's row): the key with the answer. A concurrent
 *   request with the same key fails there on the unique index once the first commits, and its
 *   whole statement (or transaction) with it; writer answers it from the key.
 * - once_count and once_elapsed_ms (in the effect's answer row): null for a replay; once_went,
 *   whether once_go had its row.
 *
 * - once_ticket_live (in the effect's answer row): false when the writer was remembered by a
 *   ticket (Writer's ticketCheck) that is no longer live; the write then changes and counts nothing.
 *
 * Placeholders start at `first`: keyed, user, endpoint, client_id, request hash, window key, limit
 * and the remembered ticket's hash (null when the ticket was looked up for this request); without
 * a key, user, window key, limit and ticket hash.
 */
export interface OnceParts {
  types: readonly string[];
  ctes: string;
  store(answer: string, from: string): string;
  outcome: string;
}

export function onceParts(first: number, keyed: boolean): OnceParts {
  const $ = (i: number) => `$${first + i}`;
  const [user, endpoint, clientId, hash, windowKey, limit, ticket] = keyed ? [0, 1, 2, 3, 4, 5, 6].map($) : [$(0), '', '', '', $(1), $(2), $(3)];
  const fresh = keyed
    ? `once_fresh as (select 1 where not exists (
        select from idempotency_keys where user_id = ${user} and kind = ${endpoint} and client_id = ${clientId})),`
    : '';
  return {
    types: keyed ? ['int', 'text', 'text', 'text', 'text', 'int', 'text'] : ['int', 'text', 'int', 'text'],
    ctes: `once_ticket as (select 1 where ${ticket}::text is null or ${TICKET_LIVE_SQL(ticket!, user!)}),
      once_suspension as (${SUSPENSION_SQL(user!)}),
      once_free as (select 1 where not exists (select from once_suspension)),
      ${fresh}
      once_hit as (${windowHitText(windowKey!, String(WRITE_WINDOW_SECONDS), '1', keyed ? 'from once_fresh, once_ticket, once_free' : 'from once_ticket, once_free')}),
      once_go as (select 1 from once_hit where count <= ${limit})`,
    store: (answer, from) =>
      keyed
        ? `once_stored as (
            insert into idempotency_keys (user_id, kind, client_id, request_hash, result)
            select ${user}, ${endpoint}, ${clientId}, ${hash}, ${answer} from ${from} returning 1)`
        : 'once_stored as (select 1)',
    outcome: `(select count from once_hit) as once_count, (select elapsed_ms from once_hit) as once_elapsed_ms, exists (select from once_go) as once_went,
      exists (select from once_ticket) as once_ticket_live,
      exists (select from once_suspension) as once_suspended, (select until_ms from once_suspension) as once_suspended_until_ms`,
  };
}

/** What writer hands an effect made in one statement: whether it is keyed, and the values of onceParts' placeholders. */
export interface OnceCall {
  keyed: boolean;
  values: PreparedValue[];
  /**
   * For an effect whose answer is read after its statement (post/add): stores the answer under the
   * key its statement claimed (stored as null there), in the same transaction; nothing unkeyed.
   */
  store(tx: Db, answer: unknown): Promise<unknown> | undefined;
}

/** What such an effect gives back: its statement's once outcome, and its answer (which may throw the effect's own refusals). */
/** The columns onceParts' outcome adds to the effect's answer row. */
export interface OnceOutcome {
  once_count: number | null;
  once_elapsed_ms: number | null;
  once_went: boolean;
  once_ticket_live: boolean;
  once_suspended: boolean;
  once_suspended_until_ms: number | null;
}

export interface InStatement<T> {
  outcome: OnceOutcome;
  answer: () => T;
}

/** Whether a write failed on the idempotency key's unique index: a concurrent request with the key committed first. */
function isKeyTaken(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === 'idempotency_user_kind_client_idx') return true;
  }
  return false;
}

/**
 * The suspension of user `userId` (a placeholder) while it lasts: one row with until_ms, its end
 * in ms since 1970 (null for good), or no row when the user may write.
 */
const SUSPENSION_SQL = (userId: string) =>
  `select case when suspended_until = 'infinity' then null else (extract(epoch from suspended_until) * 1000)::float8 end as until_ms
    from users where id = ${userId} and suspended_until > now()`;

const suspensionStatement = preparedStatement('write_suspension', ['int'], SUSPENSION_SQL('$1'));

/** The user's suspension while it lasts (its end in ms, null for good), or undefined when the user may write. */
export async function suspensionOf(db: Db, userId: number): Promise<{ untilMs: number | null } | undefined> {
  const [row] = await queryPrepared<{ until_ms: number | string | null }>(db, suspensionStatement, [userId]);
  return row ? { untilMs: row.until_ms === null ? null : Number(row.until_ms) } : undefined;
}

/** -1014 for a suspended user: for a write outside the writer (the picture upload). */
export async function refuseIfSuspended(db: Db, userId: number): Promise<void> {
  const suspension = await suspensionOf(db, userId);
  if (suspension) throw suspended(suspension.untilMs);
}

/** The window after counting the write, or undefined when the key was claimed before (a replay). */
async function claimed(tx: Db, call: WriteCall, clientId: string, hash: string) {
  const [row] = await queryPrepared<{ count: number | null; elapsed_ms: number | null }>(tx, claimAndCount, [
    call.viewer.userId,
    boundText(call.endpoint),
    boundText(clientId),
    hexDigest(hash),
    boundText(writeWindowKey(call.viewer.userId)),
  ]);
  if (!row || row.count === null || row.elapsed_ms === null) return undefined;
  return windowAfterHit({ count: row.count, elapsed_ms: row.elapsed_ms }, WRITE_WINDOW_SECONDS);
}

const CLEANUP_BATCH = 500;
/** How often a process looks for expired keys and windows. */
export const CLEANUP_EVERY_MS = 60_000;

export interface CleanupTimes {
  everyMs: number;
  firstAfterMs: number;
}

/** The statement of cleanupExpired's batch ($1 rows of each table at most), named for the tests that leave it out of their counts. */
export const CLEANUP_STATEMENT = 'expired_keys_and_windows_delete';

// Every window in use is at most two days long (daily caps); login windows are shorter.
const cleanup = preparedStatement(
  CLEANUP_STATEMENT,
  ['int'],
  `with keys as (
      delete from idempotency_keys where ctid in (
        select ctid from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS}) limit $1)
      returning 1),
    windows as (
      delete from rate_limits where ctid in (select ctid from rate_limits where window_start < now() - interval '3 days' limit $1)
      returning 1)
    select (select count(*) from keys)::int as keys, (select count(*) from windows)::int as windows`,
);

/**
 * Deletes idempotency keys older than IDEMPOTENCY_KEEP_HOURS (never a younger one) and
 * rate-limit windows that ended long ago (an ended window counts as no row at all), a bounded
 * batch of each, in one statement.
 */
export async function cleanupExpired(db: Db, batch = CLEANUP_BATCH): Promise<{ keys: number; windows: number }> {
  const [row] = await queryPrepared<{ keys: number; windows: number }>(db, cleanup, [batch]);
  return { keys: row?.keys ?? 0, windows: row?.windows ?? 0 };
}

/**
 * Each process's housekeeping, off every request's path: cleanupExpired first after `firstAfterMs`
 * (a process just started has its database to reach and migrate), then every `everyMs`, and again
 * at once while a batch comes back full, so that it keeps up with any rate of writes. A database
 * away for a moment is tried again at the next turn. Stopped by the function it answers.
 */
export function clearExpiredEvery(db: Db, { everyMs, firstAfterMs }: CleanupTimes = { everyMs: CLEANUP_EVERY_MS, firstAfterMs: CLEANUP_EVERY_MS }): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const next = (afterMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = cleanupExpired(db)
        .then(({ keys, windows }) => next(keys === CLEANUP_BATCH || windows === CLEANUP_BATCH ? 0 : everyMs))
        .catch(() => next(everyMs));
    }, afterMs);
    timer.unref();
  };
  next(firstAfterMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
