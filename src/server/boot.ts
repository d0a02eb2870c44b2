/**
 * The parts of a start every server process shares (main.ts, and the bench's server with its
 * anchors): the configuration, the database, and serving until a signal stops it.
 *
 * A process listens first, then reaches its database, migrates it and becomes ready: probes
 * hear where it is all along (http/health.ts). A database that is away at start is tried again,
 * one line per try, for DATABASE_RETRY_SECONDS. A signal turns /readyz to 503, waits
 * SHUTDOWN_DRAIN_MS while requests are still served, stops listening once the requests in
 * flight are answered, and only then closes the database.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, parseDatabaseUrl, type Config } from './config.ts';
import { createDatabase, isDatabaseUnavailable, type Database, type UnpreparedDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { serveBackups } from './db/backup-socket.ts';
import { runModeratorCommand } from './services/moderators.ts';
import type { Readiness } from './http/health.ts';

/** The configuration from the environment, or the process ends saying which variable to fix. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // No stack trace: the message says which variable to fix.
    console.error(err.message);
    process.exit(1);
  }
}

/** The configured database (PostgreSQL, or PGlite in DATA_DIR), not reached yet: serveUntilStopped does. */
export function createConfiguredDatabase(config: Config): Promise<UnpreparedDatabase> {
  return createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    migrationsFolder: config.migrationsFolder,
    poolSize: config.databasePoolSize,
  }).catch((err: unknown) => {
    if (!(err instanceof DataDirInUseError)) throw err;
    // A second server on the same PGlite folder: say so, no stack trace.
    console.error(err.message);
    process.exit(1);
  });
}

/** Where the server listens, as its socket says (HOST and the port bound, PORT=0 too): an IPv6 address in brackets, a wildcard named as every address. */
export function listeningUrl(address: AddressInfo | string | null): string {
  if (address === null) return 'nowhere (not listening)';
  if (typeof address === 'string') return address;
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const every = address.address === '0.0.0.0' || address.address === '::' ? ' (every address of this host)' : '';
  return `http://${host}:${address.port}${every}`;
}

/** Where DATABASE_URL points (host:port, or the socket folder of ?host=), without its user or password. */
export function databaseAddressOf(databaseUrl: string): string {
  const url = parseDatabaseUrl(databaseUrl);
  if (!url) return 'DATABASE_URL';
  const host = url.searchParams.get('host') ?? (decodeURIComponent(url.hostname) || 'localhost');
  return `${host}:${url.searchParams.get('port') ?? (url.port || '5432')}`;
}

/** Why reaching the database failed, in one line: the driver's or the network's words (each address's, when several were tried). */
export function connectFailureReason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return [...new Set(error.errors.map(connectFailureReason))].join('; ');
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return error.message.split('\n')[0]!.trim() || (typeof code === 'string' ? code : error.name);
}

/** Pauses between tries to reach the database: doubling from the first to the longest. */
const FIRST_RETRY_PAUSE_MS = 1_000;
const LONGEST_RETRY_PAUSE_MS = 5_000;

/**
 * Reaches the database. While it is away (refused, not resolved, starting up) it is tried again
 * after growing pauses for config.databaseRetrySeconds, each failure one line naming where and
 * why; then, or at once for what trying again cannot mend (a wrong password, a missing
 * database), the process exits with 1. A stop meanwhile ends the tries.
 */
async function reachDatabase(log: FastifyBaseLogger, database: UnpreparedDatabase, readiness: Readiness, config: Config): Promise<void> {
  const where = config.databaseUrl ? databaseAddressOf(config.databaseUrl) : config.dataDir;
  const deadline = Date.now() + config.databaseRetrySeconds * 1000;
  for (let pause = FIRST_RETRY_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_RETRY_PAUSE_MS)) {
    try {
      await database.connect();
      return;
    } catch (error) {
      // PGlite is a folder, not a server away: its failure is told with its stack.
      if (database.kind === 'pglite' || readiness.phase === 'stopping') throw error;
      const reason = connectFailureReason(error);
      if (!isDatabaseUnavailable(error)) {
        log.fatal(`cannot use the database at ${where}: ${reason}`);
        process.exit(1);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        log.fatal(`database at ${where} unreachable: ${reason}; gave up after ${config.databaseRetrySeconds} s (DATABASE_RETRY_SECONDS)`);
        process.exit(1);
      }
      const wait = Math.min(pause, left);
      log.warn(`database at ${where} unreachable: ${reason}; trying again in ${wait / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

export interface StopOptions {
  app: FastifyInstance;
  database: Database;
  readiness: Readiness;
  /** How long /readyz answers 503 before the process stops listening (only once it was ready). */
  drainMs: number;
  /** Closes the backup socket (PGlite), before the database it dumps. */
  closeBackups?: () => Promise<void>;
}

/** Stops a process: /readyz 503 first, then (after drainMs) no new connections, the requests in flight answered, and the database closed last. */
export async function stopGracefully({ app, database, readiness, drainMs, closeBackups }: StopOptions): Promise<void> {
  const wasReady = readiness.phase === 'ready';
  readiness.enter('stopping');
  // No balancer sends requests to a process that never was ready: nothing to wait for.
  if (wasReady && drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  await app.close();
  await closeBackups?.();
  // PGlite keeps the process alive until it is closed.
  await database.close();
}

export interface ServeOptions {
  app: FastifyInstance;
  database: UnpreparedDatabase;
  readiness: Readiness;
  config: Config;
  startedAt: number;
  /** Runs once the database is migrated, before the process is ready (the demo seed). */
  prepare?: () => Promise<void>;
}

/**
 * Listens on the configured port, reaches and migrates the database, and serves until SIGINT or
 * SIGTERM stops the process (stopGracefully).
 */
export async function serveUntilStopped({ app, database, readiness, config, startedAt, prepare }: ServeOptions): Promise<void> {
  let stopping = false;
  let closeBackups: (() => Promise<void>) | undefined;
  function stop(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: /readyz answers 503');
    stopGracefully({ app, database, readiness, drainMs: config.shutdownDrainMs, closeBackups }).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  }
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  await app.listen({ port: config.port, host: config.host });
  try {
    await reachDatabase(app.log, database, readiness, config);
    readiness.enter('migrating');
    await database.migrate();
    await app.live.listenTo(database);
    // The push key pair is made (or read) once at start: no read ever writes it.
    await app.push.publicKey();
    await prepare?.();
  } catch (error) {
    // Stopped while starting: the closed database ended the start; the stop ends the process.
    if (stopping) return;
    throw error;
  }
  if (stopping) return;
  if (database.dumpDataDir && !config.databaseUrl) {
    // A server without it still serves; only a live backup is refused (the tool says so).
    closeBackups = await serveBackups(
      config.dataDir,
      database.dumpDataDir,
      (error) => app.log.error({ err: error }, 'backup failed'),
      // `npm run moderator` while this process has the folder: the command runs here.
      (args) => runModeratorCommand(database.db, args),
    ).catch(
      (error: unknown) => {
        app.log.warn({ err: error }, 'no admin socket beside DATA_DIR: npm run backup and npm run moderator need the server stopped');
        return undefined;
      },
    );
  }
  readiness.enter('ready');
  app.log.info(`${config.providerName}社区 ready on ${listeningUrl(app.server.address())} (${database.kind}, ${Date.now() - startedAt} ms)`);
}
