/**
 * The server as main.ts starts it, with the bench's anchors beside its calls (server-anchors.ts):
 * the feed groups of run.ts bundle it as `npm run build:server` bundles main.ts and run it in a
 * process of its own. No demo seed: those groups bulk-load their own posts.
 */
import { listenUntilStopped, loadConfigOrExit, openConfiguredDatabase } from '../../src/server/boot.ts';
import { buildAnchoredApp } from './server-anchors.ts';

const config = loadConfigOrExit();
const started = Date.now();
const database = await openConfiguredDatabase(config);
const app = await buildAnchoredApp({ config, db: database.db, logger: true });
await listenUntilStopped(app, database, config, started);
