/**
 * Opens the database: PGlite in a folder when no DATABASE_URL is given, PostgreSQL otherwise.
 * Both run the same migrations, so the two can never differ in shape.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { DEFAULT_DATABASE_POOL_SIZE } from '../config.ts';
import { lockDataDir } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** A PostgreSQL pool's connections now, for /metrics. */
export interface PoolStats {
  /** The most it opens (DATABASE_POOL_SIZE). */
  max: number;
  /** Open connections, lent or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is at its size, or the reads at their share of it. */
  waiting: number;
}

/** A query's time from being sent to its answer (seconds), and whether it failed. */
export type QueryObserver = (seconds: number, failed: boolean) => void;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * PostgreSQL only. PGlite has no pool: one connection inside the process runs each query in
   * turn, and it tells no queue of its own, so it has nothing honest to report.
   */
  poolStats?: () => PoolStats;
  /** PostgreSQL only: from now on `observer` hears every query of the pool's connections, its time and whether it failed. */
  observeQueries?: (observer: QueryObserver) => void;
  /**
   * PGlite only: the folder as a gzip tarball, consistent while requests write (a live backup).
   * It holds PGlite's transaction lock, which every query and transaction of the app takes, so it
   * lands between two of them; the checkpoint first lets the tarball open without WAL replay.
   */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * Hears the NOTIFY payloads of `channel`, from every process, until the returned stop. On
   * PostgreSQL a connection of its own, outside the pool, opened again (growing pauses) whenever
   * it is lost; `onGap` is told each time it is back, as what was notified meanwhile is lost.
   */
  listen(channel: string, onPayload: (payload: string) => void, onGap: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://... ; absent: embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; absent with no databaseUrl: in memory. */
  dataDir?: string | undefined;
  /** A PGlite dumpDataDir() tarball to start from (fast test databases). */
  loadDataDir?: Blob | undefined;
  migrationsFolder: string;
  poolSize?: number;
  /**
   * A PostgreSQL connection failed (the server restarted, or ended it), idle in the pool or
   * lent to a request between two of its queries: the pool drops it and opens another when
   * needed. Without a listener the connection's error event would end the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

/**
 * PostgreSQL's pool with some of its connections kept for writes. A read (pool.query) takes one
 * of at most `readLimit` connections at once and waits its turn beyond them; a write takes its
 * connection with connect() (db/transaction.ts), never behind the reads still waiting, so a
 * crowd of readers cannot make every statement of a write queue behind theirs.
 */
export class WriteReservingPool extends pg.Pool {
  readonly readLimit: number;
  private reads = 0;
  private readonly readsWaiting: (() => void)[] = [];

  constructor(config: pg.PoolConfig & { max: number }) {
    super(config);
    this.readLimit = Math.max(1, config.max - connectionsKeptForWrites(config.max));
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    // Only the promise form is gated: a callback query (nothing of ours makes one) goes straight on.
    this.query = ((...args: unknown[]) =>
      typeof args.at(-1) === 'function' ? query(...args) : this.gated(() => query(...args) as Promise<unknown>)) as typeof this.query;
  }

  /** Reads waiting for their turn, not yet asking the pool. */
  get readsWaitingCount(): number {
    return this.readsWaiting.length;
  }

  private async gated<T>(read: () => Promise<T>): Promise<T> {
    if (this.reads < this.readLimit) this.reads++;
    else await new Promise<void>((resolve) => this.readsWaiting.push(resolve));
    try {
      return await read();
    } finally {
      // The turn passes straight to the next read waiting, or is given back.
      const next = this.readsWaiting.shift();
      if (next) next();
      else this.reads--;
    }
  }
}

/**
 * Makes each query of `client` tell the observer of the moment (if any) its time and whether it
 * failed: a promise's (drizzle's in a transaction, db/prepared.ts), or a callback's (the pool's
 * own query, which the reads use). The query is sent as before, at once: a corked pipeline
 * (db/transaction.ts) still goes out in one write.
 */
function timeQueries(client: pg.PoolClient, observer: () => QueryObserver | undefined): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const observe = observer();
    if (!observe) return query(...args);
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        observe(seconds(), Boolean(error));
        return (callback as (...answer: unknown[]) => unknown)(error, ...rest);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) {
      result.then(
        () => observe(seconds(), false),
        () => observe(seconds(), true),
      );
    }
    return result;
  }) as typeof client.query;
}

/**
 * Connections of a pool of `size` that reads leave to writes: 30 %, rounded down, and at least
 * one while reads still keep one (a pool of one, a tool's, keeps none).
 */
export const connectionsKeptForWrites = (size: number) => (size < 2 ? 0 : Math.max(1, Math.floor(size * 0.3)));

/** How long a request waits for a new PostgreSQL connection before it is answered 503 (the database is away). */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * SQLSTATEs of a database that is away for now: the connection classes (08: lost, refused,
 * failed), the server shutting down or ending connections (57P01-57P03, 57P05), and too many
 * connections while it recovers (53300).
 */
const UNAVAILABLE_STATES = /^(08\d{3}|57P0[1235]|53300)$/;
/** Node's network errors reaching the database, and the driver's words for a connection gone. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/i;

/**
 * Whether `error` (or what caused it: drizzle wraps the driver's error) says the database is
 * away for now rather than that the request or our code is wrong: such a request is answered
 * 503, to be tried again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_CODES.has(code))) return true;
    if (UNAVAILABLE_MESSAGES.test(current.message)) return true;
  }
  return false;
}

/**
 * A database not used yet: connect() reaches it, migrate() brings its tables up to date. A server
 * listens before either (http/health.ts tells probes where the start is), and tries connect()
 * again while the database is away (boot.ts).
 */
export interface UnpreparedDatabase extends Database {
  /** Reaches the database (PostgreSQL: one connection; PGlite: its folder loaded); rejects while it is away. */
  connect(): Promise<void>;
  /** Runs the migrations (PostgreSQL: one process at a time, under an advisory lock). */
  migrate(): Promise<void>;
}

/** The database, reached and migrated. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const database = await createDatabase(options);
  try {
    await database.connect();
    await database.migrate();
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}

/** The database's handle (PGlite: its folder locked), without a connection yet. */
export async function createDatabase(options: OpenOptions): Promise<UnpreparedDatabase> {
  if (options.databaseUrl) {
    const pool = new WriteReservingPool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? DEFAULT_DATABASE_POOL_SIZE,
      // A connection sends a query without waiting for the answers before it: a write's BEGIN
      // goes out with its first statement, its last with the COMMIT (db/transaction.ts).
      pipeline: true,
      // A database that does not answer fails the request in good time instead of holding it.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      // Many small queries at once: compiling a plan the planner thinks costly (search's) took
      // longer than running it, and parallel workers take the cores the other requests need.
      options: '-c jit=off -c max_parallel_workers_per_gather=0',
    });
    const lost = options.onIdleConnectionError ?? ((error: Error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    pool.on('error', lost);
    // A lent connection's error event (the server ended it between two queries of a request)
    // is every client's own: the query in flight fails, and the pool drops the client on release.
    pool.on('connect', (client) => client.on('error', lost));
    let observer: QueryObserver | undefined;
    pool.on('connect', (client) => timeQueries(client, () => observer));
    const db = drizzlePg(pool, { schema });
    const max = options.poolSize ?? DEFAULT_DATABASE_POOL_SIZE;
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      poolStats: () => ({ max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount + pool.readsWaitingCount }),
      observeQueries: (next) => {
        observer = next;
      },
      async connect() {
        (await pool.connect()).release();
      },
      async migrate() {
        // Several API processes may start at once; an advisory lock lets one migrate at a time.
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock(727401)');
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder: options.migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock(727401)').catch(() => undefined);
          client.release();
        }
      },
      listen: (channel, onPayload, onGap) => listenOnPostgres(options.databaseUrl!, channel, onPayload, onGap),
      close: () => pool.end(),
    };
  }
  // One process per folder (data-dir-lock.ts): a second one is refused before it opens anything.
  const release = options.dataDir ? await lockDataDir(options.dataDir) : async () => undefined;
  try {
    // Loads in the background; connect() waits for it. The handler keeps a failure for connect()
    // to report instead of ending the process as an unhandled rejection meanwhile.
    const client = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    client.waitReady.catch(() => undefined);
    const db = drizzlePglite(client, { schema });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      connect: () => client.waitReady,
      migrate: () => migratePglite(db, { migrationsFolder: options.migrationsFolder }),
      listen: async (channel, onPayload) => {
        const stop = await client.listen(channel, onPayload);
        return () => stop();
      },
      dumpDataDir: () =>
        client.transaction(async (tx) => {
          await tx.query('checkpoint');
          return client.dumpDataDir('gzip');
        }),
      close: async () => {
        try {
          await client.close();
        } finally {
          await release();
        }
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Pauses before a lost listening connection is opened again: doubling from the first to the longest. */
const LISTEN_FIRST_PAUSE_MS = 500;
const LISTEN_LONGEST_PAUSE_MS = 10_000;

async function listenOnPostgres(url: string, channel: string, onPayload: (payload: string) => void, onGap: () => void): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let pause = LISTEN_FIRST_PAUSE_MS;
  const open = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    // Lost (the server restarted, or ended it): opened again, and the streams told to catch up.
    const lost = () => {
      if (client !== next) return;
      client = null;
      next.removeAllListeners('error');
      next.on('error', () => undefined);
      void next.end().catch(() => undefined);
      if (!stopped) setTimeout(reopen, pause);
    };
    next.on('error', lost);
    next.on('end', lost);
    await next.connect();
    await next.query(`listen "${channel.replaceAll('"', '""')}"`);
    client = next;
    pause = LISTEN_FIRST_PAUSE_MS;
  };
  const reopen = () => {
    if (stopped) return;
    open().then(onGap, () => {
      pause = Math.min(pause * 2, LISTEN_LONGEST_PAUSE_MS);
      if (!stopped) setTimeout(reopen, pause);
    });
  };
  await open();
  return async () => {
    stopped = true;
    const last = client;
    client = null;
    await last?.end().catch(() => undefined);
  };
}

/** Whether any user exists: a database without users is empty (and may get the demo seed). */
export async function hasUsers(db: Db): Promise<boolean> {
  const result = (await db.execute(sql`select exists (select 1 from ${schema.users}) as found`)) as unknown as {
    rows: { found: boolean }[];
  };
  return result.rows[0]?.found === true;
}

/**
 * Whether a demo database made before the joint book lists lacks them: its sidebar leads to one
 * (an explore item to /booklist/...) and no list exists. The start then adds the demo's lists.
 */
export async function lacksDemoBooklists(db: Db): Promise<boolean> {
  const result = (await db.execute(
    sql`select (exists (select 1 from ${schema.exploreItems} where ${schema.exploreItems.redirectParam} like '/booklist/%')
      and not exists (select 1 from ${schema.booklists})) as lacking`,
  )) as unknown as { rows: { lacking: boolean }[] };
  return result.rows[0]?.lacking === true;
}
