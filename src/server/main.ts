/** Boots the server: config, database (migrated, demo data on first start), app, port. */
import { buildApp } from './app.ts';
import { createConfiguredDatabase, loadConfigOrExit, serveUntilStopped } from './boot.ts';
import { hasUsers, lacksDemoBooklists } from './db/client.ts';
import { Readiness } from './http/health.ts';

const config = loadConfigOrExit();
const startedAt = Date.now();
const database = await createConfiguredDatabase(config);
const readiness = new Readiness('starting');
const app = await buildApp({ config, db: database.db, logger: true, readiness, poolStats: database.poolStats, observeQueries: database.observeQueries });
// Only an empty database, or a demo older than the book lists, loads the seed (its generator, and
// its content from seed-data/ on disk): an ordinary start never parses it. The demo ends "now", so a fresh install reads like a living
// community (tests seed a fixed date).
async function seedDemoData() {
  if (!config.seedDemoData) return;
  const empty = !(await hasUsers(database.db));
  // A demo made before the joint book lists: its sidebar's 读书会书单 gets the list it leads to.
  if (!empty && !(await lacksDemoBooklists(database.db))) return;
  const seedStarted = Date.now();
  if (empty) {
    // The tables are there: pages and probes are answered meanwhile, API calls wait for the community.
    readiness.enter('seeding');
    app.log.info('seeding demo data into the empty database: pages are served, API calls wait and /readyz answers 503 until it is done');
  }
  // One import of the seed, only here: the bundle keeps its content out of the server's start.
  const seed = await import('./seed/seed.ts');
  if (empty) {
    const progress = (step: string, number: number, of: number) => app.log.info(`seeding demo data ${number}/${of}: ${step}`);
    if (await seed.seedIfEmpty(database.db, { now: new Date(), progress })) app.log.info(`seeded demo data in ${Date.now() - seedStarted} ms`);
    else app.log.info('demo data seeded by another process');
    return;
  }
  if (await seed.seedDemoBooklists(database.db, { now: new Date() })) {
    app.log.info('seeded the demo book lists');
  }
}
await serveUntilStopped({ app, database, readiness, config, startedAt, prepare: seedDemoData });
