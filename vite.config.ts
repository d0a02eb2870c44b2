import react from '@vitejs/plugin-react';
import { minify, type Plugin, type Rolldown, type UserConfig } from 'vite';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { VitePWA } from 'vite-plugin-pwa';
import { communityTexts, DEFAULT_CLIENT_CONFIG } from './src/shared/client-config.ts';
import { FIRST_SCREEN_PAGE_MODULE, START_AFTER_FIRST_PAINT_PATH } from './src/shared/first-screen.ts';
import { catchEarlyActs } from './src/client/lib/early-acts-catcher.ts';
import { SHARE_FILES_FIELD, SHARE_TARGET_PATH } from './src/shared/static-paths.ts';

const apiServer = process.env.API_URL ?? 'http://localhost:3000';
// The build writes the default name; the server serves the manifest and the page with the
// run-time PROVIDER_NAME (src/server/http/client-page.ts).
const texts = communityTexts(DEFAULT_CLIENT_CONFIG.providerName);

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

/**
 * The build's copy of public/start-after-first-paint.js minified: every page the server renders
 * loads it first (a first visit counts its bytes), and its comments are for us, not for phones.
 * By the bundle's own minifier, before the service worker's precache is made (closeBundle),
 * which names the file by its content.
 */
function minifiedStartScript(): Plugin {
  return {
    name: 'minified-start-script',
    apply: 'build',
    async writeBundle({ dir }) {
      const file = join(dir ?? 'dist/client', START_AFTER_FIRST_PAINT_PATH);
      const { code } = await minify(file, await readFile(file, 'utf8'), { module: true });
      await writeFile(file, code);
    },
  };
}

/**
 * What the reader does before the app has started is kept from the first paint on: the page's
 * first script, inline at the start of its body (src/client/lib/early-acts-catcher.ts), minified.
 * An inline script runs where the page's policy names it by its hash (src/server/http/client-page.ts).
 */
function earlyActsCatcher(): Plugin {
  let code: string | undefined;
  return {
    name: 'early-acts-catcher',
    async transformIndexHtml() {
      code ??= (await minify('early-acts-catcher.js', `(${catchEarlyActs.toString()})();`, { module: false })).code.trim();
      return [{ tag: 'script', attrs: { 'data-early-acts': true }, children: code, injectTo: 'body-prepend' }];
    },
  };
}

/** V8's explicit compile hint for a whole file (Chrome 136 on; other engines read a comment). */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Code a page runs as it starts besides its route's: the rich-text renderer (ui/RichText.tsx loads
 * it in two chunks), which renders a post's text and its comments right after the page is up.
 */
const STARTING_RICH_TEXT_MODULES = ['src/client/ui/rich-text/sanitize.ts', 'src/client/ui/rich-text/renderer.ts'];

/**
 * The hint on the code a page runs as it starts: the entry, the code of the pages the server
 * renders first (FIRST_SCREEN_PAGE_MODULE) and the rich-text renderer, with what they import.
 * V8 then compiles their functions while the file downloads, off the main thread, rather than
 * each on the main thread when first called: about 130-180 ms of a post's start on this
 * machine's CPU, spread over the tasks Lighthouse counts as blocking. Code loaded later (the
 * editor, KaTeX, the gallery) stays compiled lazily, as little of it runs. On the file's first
 * line, where V8 looks for it; the source map moves down a line with the code.
 */
function compileHintsOnStartingCode(): Plugin {
  const startingModules = [...Object.values(FIRST_SCREEN_PAGE_MODULE).filter((module) => module !== undefined), ...STARTING_RICH_TEXT_MODULES];
  return {
    name: 'compile-hints-on-starting-code',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
        const starting = new Set<Rolldown.OutputChunk>();
        const add = (chunk: Rolldown.OutputChunk | undefined) => {
          if (!chunk || starting.has(chunk)) return;
          starting.add(chunk);
          for (const imported of chunk.imports) add(chunks.get(imported));
        };
        for (const chunk of chunks.values()) {
          if (chunk.isEntry || startingModules.some((module) => chunk.facadeModuleId?.endsWith(`/${module}`))) add(chunk);
        }
        for (const chunk of starting) {
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          // The map's file is an asset of its own by now (as Vite's own edits here update it).
          const mapFile = bundle[`${chunk.fileName}.map`];
          if (mapFile?.type === 'asset' && typeof mapFile.source === 'string') {
            const map = JSON.parse(mapFile.source) as { mappings: string };
            mapFile.source = JSON.stringify({ ...map, mappings: `;${map.mappings}` });
          }
        }
      },
    },
  };
}

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
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,woff2}'],
        rollupFormat: 'es',
      },
      manifest: {
        id: '/home',
        name: texts.appName,
        short_name: texts.appName,
        description: texts.manifestDescription,
        lang: 'zh-CN',
        dir: 'ltr',
        categories: ['education', 'social', 'news'],
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        background_color: '#f5f6f7',
        theme_color: '#fa8919',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // The installed icon's menu (long press, right click). Logged out, 发动态 asks for a login first.
        shortcuts: [
          {
            name: '发动态',
            description: '写一条新动态',
            url: '/home?compose=1',
            icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
          },
          {
            name: '关注',
            description: '关注的频道和用户的动态',
            url: '/follow',
            icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
          },
        ],
        // The richer install dialog: the app as it looks (public/screenshots, not precached).
        screenshots: [
          { src: '/screenshots/feed-narrow.png', sizes: '720x1280', type: 'image/png', form_factor: 'narrow', label: '手机上的动态首页' },
          { src: '/screenshots/feed-wide.png', sizes: '1280x800', type: 'image/png', form_factor: 'wide', label: '电脑上的动态首页与侧栏' },
        ],
        // Sharing a page, text or pictures to the installed app opens the composer with them
        // (sw/share-target.ts keeps the pictures, features/compose/share.ts takes them).
        share_target: {
          action: SHARE_TARGET_PATH,
          method: 'POST',
          enctype: 'multipart/form-data',
          params: { title: 'title', text: 'text', url: 'url', files: [{ name: SHARE_FILES_FIELD, accept: ['image/*'] }] },
        },
        display_override: ['standalone', 'minimal-ui'],
        // One window: a link or a share that opens the installed app goes to the window already open, focused.
        launch_handler: { client_mode: ['navigate-existing', 'auto'] },
      },
      devOptions: { enabled: false },
    }),
  ],
  test: {
    // Vitest's default on two cores is one file at a time; the api files (PGlite and PostgreSQL
    // in other processes) and the unit files gain from two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // Timeouts are how long a test may wait before it is called stuck, not how fast it must be:
    // they hold on a machine many times slower than a quiet one (speed is the bench's business).
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          // Files that need no DOM say `// @vitest-environment node` on their first line.
          environment: 'jsdom',
          setupFiles: ['tests/support/unit-setup.ts'],
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'lint',
          include: ['tests/lint/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/api-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // The demo's data folder made once, and the server the files that only read share.
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          setupFiles: ['tests/e2e/support/failure-setup.ts'],
          // Two files at a time, even on two cores: much of a file's time is spent waiting on its
          // browser and its server.
          maxWorkers: 2,
          testTimeout: 600_000,
          hookTimeout: 300_000,
          expect: { poll: { timeout: 60_000 } },
        },
      },
    ],
  },
}));
