/**
 * The service worker: what the app keeps for offline use (src/client/README.md, 'Offline').
 * Built by vite-plugin-pwa (injectManifest) into dist/client/sw.js. Route order matters:
 * precache first, then starts of /home (the kept first screen), shares to the installed app,
 * other navigations, API reads, other API calls and images.
 */
import { setupApiCache } from './api-cache.ts';
import { setupBackgroundSync } from './background-sync.ts';
import { setupImageCache } from './images.ts';
import { setupLifecycle } from './lifecycle.ts';
import { setupKeptFirstScreen } from './kept-first-screen.ts';
import { setupNavigation } from './navigation.ts';
import { setupNetworkStatus } from './network-status.ts';
import { setupPrecache } from './precache.ts';
import { setupPush } from './push.ts';
import { setupShareTarget } from './share-target.ts';

setupLifecycle();
setupNetworkStatus();
setupPrecache();
setupKeptFirstScreen();
setupShareTarget();
setupNavigation();
setupApiCache();
setupImageCache();
setupPush();
setupBackgroundSync();
