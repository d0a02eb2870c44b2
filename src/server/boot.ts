/**
 * The parts of a start every server process shares (main.ts, and the bench's server with its
 * anchors): the configuration, the database, and listening until a signal closes both.
 */
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';

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

/** The configured database (PostgreSQL, or PGlite in DATA_DIR), migrated. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase({
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

/** Listens on the configured port until SIGINT or SIGTERM, which close the app and then the database. */
export async function listenUntilStopped(app: FastifyInstance, database: Database, config: Config, startedAt: number): Promise<void> {
  let closing = false;
  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    // PGlite keeps the process alive until it is closed.
    await database.close();
    process.exit(0);
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`${config.providerName}社区 ready on http://localhost:${config.port} (${database.kind}, ${Date.now() - startedAt} ms)`);
}
