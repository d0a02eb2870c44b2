/** Boots the server: config, database (migrated, demo data on first start), app, port. */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { hasUsers, openDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // No stack trace: the message says which variable to fix.
    console.error(err.message);
    process.exit(1);
  }
}

const config = configOrExit();
const started = Date.now();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
  migrationsFolder: config.migrationsFolder,
}).catch((err: unknown) => {
  if (!(err instanceof DataDirInUseError)) throw err;
  // A second server on the same PGlite folder: say so, no stack trace.
  console.error(err.message);
  process.exit(1);
});
const app = await buildApp({ config, db: database.db, logger: true });
// Only an empty database loads the seed (its generator, and its content from seed-data/ on disk):
// an ordinary start never parses it. The demo ends "now", so a fresh install reads like a living
// community (tests seed a fixed date).
if (config.seedDemoData && !(await hasUsers(database.db))) {
  const { seedIfEmpty } = await import('./db/seed.ts');
  if (await seedIfEmpty(database.db, { now: new Date() })) app.log.info('seeded demo data');
}

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
app.log.info(`${config.providerName}社区 ready on http://localhost:${config.port} (${database.kind}, ${Date.now() - started} ms)`);
