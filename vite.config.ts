// What Vite builds: the client (the PWA, into dist/client) and, with --ssr, the server's render of a
// first screen (dist/ssr). The client build's own plugins are src/build/plugins.ts, its manifest
// and service worker src/build/pwa.ts; Vitest's test projects are src/build/test-projects.ts.
import react from '@vitejs/plugin-react';
import type { UserConfig } from 'vite';
import { defineConfig } from 'vitest/config';
import { compileHintsOnStartingCode, earlyActsCatcher, minifiedStartScript } from './src/build/plugins.ts';
import { pwa } from './src/build/pwa.ts';
import { testSettings } from './src/build/test-projects.ts';

// Dev only: where `vite`'s dev server proxies API calls (README's configuration table names it).
const apiServer = process.env.API_URL ?? 'http://localhost:3000';

/**
 * The server's render of a first screen (src/client/app/first-screen.server.tsx), built
 * apart from the client (`npm run build:ssr`: `vite build --ssr` with that entry, into dist/ssr): the client's
 * bundle and its service worker's precache carry none of it. One file with its packages in it,
 * React's production build (the server runs without NODE_ENV); stylesheets are the client
 * build's, inlined in the page, so none is written here.
 */
const firstScreenRenderBuild: UserConfig = {
  root: '.',
  publicDir: false,
  plugins: [react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true },
  build: {
    outDir: 'dist/ssr',
    emptyOutDir: true,
    sourcemap: true,
    target: 'node20',
    rolldownOptions: { output: { entryFileNames: 'first-screen.js' } },
  },
};

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? firstScreenRenderBuild : {
  root: '.',
  publicDir: 'public',
  resolve: {
    alias: {
      // React 19 has useSyncExternalStore: the shim's fallback for older Reacts is dead weight.
      'use-sync-external-store/shim/with-selector.js': 'use-sync-external-store/with-selector.js',
      'use-sync-external-store/shim/with-selector': 'use-sync-external-store/with-selector.js',
      // Its package's "module" is its ES5 build; our target takes the ES2017 one, 40 % smaller.
      'workbox-window': 'workbox-window/build/workbox-window.prod.mjs',
    },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // dist/client/.vite/manifest.json (never served: a dot folder): the stylesheets of each page's
    // code, which a page rendered on the server carries inline (src/server/http/first-screen.ts).
    manifest: true,
    // The page preloads what the entry imports (the bundler's runtime, a file of its own): it
    // loads beside the entry instead of after it. A lazy chunk's own imports are not preloaded:
    // they load when it runs (the service worker has them all precached after the first visit).
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rolldownOptions: {
      output: {
        // What the first screen needs travels as one file (it compresses better than many small
        // shared chunks); everything loaded later stays in its own chunks.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(['/serv', '/img', '/wxmisc', '/docs'].map((p) => [p, apiServer])),
  },
  plugins: [
    react(),
    minifiedStartScript(),
    earlyActsCatcher(),
    compileHintsOnStartingCode(),
    pwa(),
  ],
  test: testSettings,
}));
