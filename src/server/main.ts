/** Boots the server: config, database (migrated, demo data on first start), app, port. */
import { buildApp } from './app.ts';
import { listenUntilStopped, loadConfigOrExit, openConfiguredDatabase } from './boot.ts';
import { hasUsers, lacksDemoBooklists } from './db/client.ts';

const config = loadConfigOrExit();
const started = Date.now();
const database = await openConfiguredDatabase(config);
const app = await buildApp({ config, db: database.db, logger: true });
// Only an empty database, or a demo older than the book lists, loads the seed (its generator, and
// its content from seed-data/ on disk): an ordinary start never parses it. The demo ends "now", so a fresh install reads like a living
// community (tests seed a fixed date).
if (config.seedDemoData) {
  const empty = !(await hasUsers(database.db));
  // A demo made before the joint book lists: its sidebar's 读书会书单 gets the list it leads to.
  if (empty || (await lacksDemoBooklists(database.db))) {
    const seed = await import('./db/seed.ts');
    if (empty) {
      if (await seed.seedIfEmpty(database.db, { now: new Date() })) app.log.info('seeded demo data');
    } else if (await seed.seedDemoBooklists(database.db, { now: new Date() })) {
      app.log.info('seeded the demo book lists');
    }
  }
}
await listenUntilStopped(app, database, config, started);
