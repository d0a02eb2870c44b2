/**
 * The server as main.ts starts it, with the bench's anchors beside its calls (server-anchors.ts):
 * the feed groups of run.ts bundle it as `npm run build:server` bundles main.ts and run it in a
 * process of its own. No demo seed: those groups bulk-load their own posts.
 */
import { createConfiguredDatabase, loadConfigOrExit, serveUntilStopped } from '../../src/server/boot.ts';
import { Readiness } from '../../src/server/http/health.ts';
import { buildAnchoredApp } from './server-anchors.ts';

const config = loadConfigOrExit();
const startedAt = Date.now();
const database = await createConfiguredDatabase(config);
const readiness = new Readiness('starting');
const app = await buildAnchoredApp({ config, db: database.db, logger: true, readiness });
await serveUntilStopped({ app, database, readiness, config, startedAt });
