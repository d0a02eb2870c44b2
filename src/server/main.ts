/** Boots the server: config, database (migrated, demo data on first start), app, port. */
import { buildApp } from './app.ts';
import { listenUntilStopped, loadConfigOrExit, openConfiguredDatabase } from './boot.ts';
import { hasUsers, lacksDemoBooklists } from './db/client.ts';

const config = loadConfigOrExit();
const started = Date.now();
const database = await openConfiguredDatabase(config);
const app = await buildApp({ config, db: database.db, logger: true });
// Only an empty database loads the seed (its generator, and its content from seed-data/ on disk):
// an ordinary start never parses it. The demo ends "now", so a fresh install reads like a living
// community (tests seed a fixed date).
if (config.seedDemoData && !(await hasUsers(database.db))) {
  const { seedIfEmpty } = await import('./db/seed.ts');
  if (await seedIfEmpty(database.db, { now: new Date() })) app.log.info('seeded demo data');
} else if (config.seedDemoData && (await lacksDemoBooklists(database.db))) {
  // A demo made before the joint book lists: its sidebar's 读书会书单 gets the list it leads to.
  const { seedDemoBooklists } = await import('./db/seed.ts');
  if (await seedDemoBooklists(database.db, { now: new Date() })) app.log.info('seeded the demo book lists');
}
await listenUntilStopped(app, database, config, started);
