/**
 * The parts of a start every server process shares (main.ts, and the bench's server with its
 * anchors): the configuration, the database, and serving until a signal stops it.
 *
 * A process listens first, then reaches its database, migrates it and becomes ready: probes
 * hear where it is all along (http/health.ts). A signal turns /readyz to 503, waits
 * SHUTDOWN_DRAIN_MS while requests are still served, stops listening once the requests in
 * flight are answered, and only then closes the database.
 */
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createDatabase, type Database, type UnpreparedDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
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
  }).catch((err: unknown) => {
    if (!(err instanceof DataDirInUseError)) throw err;
    // A second server on the same PGlite folder: say so, no stack trace.
    console.error(err.message);
    process.exit(1);
  });
}

export interface StopOptions {
  app: FastifyInstance;
  database: Database;
  readiness: Readiness;
  /** How long /readyz answers 503 before the process stops listening (only once it was ready). */
  drainMs: number;
}

/** Stops a process: /readyz 503 first, then (after drainMs) no new connections, the requests in flight answered, and the database closed last. */
export async function stopGracefully({ app, database, readiness, drainMs }: StopOptions): Promise<void> {
  const wasReady = readiness.phase === 'ready';
  readiness.enter('stopping');
  // No balancer sends requests to a process that never was ready: nothing to wait for.
  if (wasReady && drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  await app.close();
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
  function stop(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: /readyz answers 503');
    stopGracefully({ app, database, readiness, drainMs: config.shutdownDrainMs }).then(
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
    await database.connect();
    readiness.enter('migrating');
    await database.migrate();
    await prepare?.();
  } catch (error) {
    // Stopped while starting: the closed database ended the start; the stop ends the process.
    if (stopping) return;
    throw error;
  }
  if (stopping) return;
  readiness.enter('ready');
  app.log.info(`${config.providerName}社区 ready on http://localhost:${config.port} (${database.kind}, ${Date.now() - startedAt} ms)`);
}
