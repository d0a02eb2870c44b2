/**
 * The bare React anchors of the first-screen bench, built from the
 * sources beside this file with Vite's JS API and the project's own react, react-dom and
 * @vitejs/plugin-react:
 * - bare: page/ (index.html, main.tsx, public/posts.json) as Vite builds it by default;
 * - offline: the same build, plus sw.ts (precaching every file of the build and the JSON) and
 *   a registration at load, as a plain page adds a service worker;
 * - stack: stack/ (the libraries the community's first screen starts, and nothing of the app),
 *   with page/'s JSON, for the first-visit JS the stack alone costs.
 * Each is served by serve.ts, a process of its own, compressed as the community's server does.
 */
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const ANCHORS_DIR = dirname(fileURLToPath(import.meta.url));
const PAGE_DIR = join(ANCHORS_DIR, 'page');
const STACK_DIR = join(ANCHORS_DIR, 'stack');
const PROJECT_ROOT = join(ANCHORS_DIR, '../../..');

/** The path of the anchors' JSON, fetched by the page and precached by the worker. */
export const ANCHOR_POSTS_PATH = '/posts.json';
export const ANCHOR_SW_PATH = '/sw.js';
/** How the offline anchor registers its worker: after load, as the platform's docs show it. */
const REGISTER_SCRIPT = `if ('serviceWorker' in navigator) addEventListener('load', () => navigator.serviceWorker.register('${ANCHOR_SW_PATH}'));`;

export interface BuiltAnchors {
  /** The bare React page. */
  bare: string;
  /** The same page with its minimal service worker. */
  offline: string;
  /** The libraries of the community's first screen, rendering the same posts. */
  stack: string;
}

/** Every file under dir, as the URL path that serves it. */
async function urlPaths(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/')}`)
    .sort();
}

/**
 * Builds the anchors into outDir/bare, outDir/offline and outDir/stack, as production builds
 * whoever calls: Vite builds React's development code when the process's NODE_ENV says so
 * (vitest's is 'test'), and the stack's page then fails on a JSX runtime React does not ship.
 */
export function buildAnchors(outDir: string): Promise<BuiltAnchors> {
  return asProduction(() => buildAnchorsForProduction(outDir));
}

/** The stack alone into outDir/stack (its folder returned), as buildAnchors builds it: the floor tests/e2e/bundle-size.test.ts measures our first visit against. */
export function buildStackAnchor(outDir: string): Promise<string> {
  return asProduction(() => buildStackForProduction(outDir));
}

async function asProduction<T>(run: () => Promise<T>): Promise<T> {
  const callersNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await run();
  } finally {
    // process.env keeps strings: an undefined would become 'undefined'.
    if (callersNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = callersNodeEnv;
  }
}

async function buildStackForProduction(outDir: string): Promise<string> {
  const stack = join(outDir, 'stack');
  await build({
    configFile: false,
    root: STACK_DIR,
    publicDir: join(PAGE_DIR, 'public'),
    logLevel: 'warn',
    plugins: [react()],
    cacheDir: join(outDir, '.vite'),
    build: { outDir: stack, emptyOutDir: true },
  });
  return stack;
}

async function buildAnchorsForProduction(outDir: string): Promise<BuiltAnchors> {
  const bare = join(outDir, 'bare');
  const offline = join(outDir, 'offline');
  await build({
    configFile: false,
    root: PAGE_DIR,
    logLevel: 'warn',
    plugins: [react()],
    // Vite's cache beside the build, not in a node_modules folder among the sources.
    cacheDir: join(outDir, '.vite'),
    build: { outDir: bare, emptyOutDir: true },
  });

  const stack = await buildStackForProduction(outDir);

  await cp(bare, offline, { recursive: true });
  const precache = await urlPaths(offline);
  await build({
    configFile: false,
    root: ANCHORS_DIR,
    logLevel: 'warn',
    publicDir: false,
    cacheDir: join(outDir, '.vite'),
    define: { __PRECACHE__: JSON.stringify(precache) },
    build: {
      outDir: offline,
      emptyOutDir: false,
      lib: { entry: join(ANCHORS_DIR, 'sw.ts'), formats: ['iife'], name: 'anchorServiceWorker', fileName: () => ANCHOR_SW_PATH.slice(1) },
    },
  });
  const indexFile = join(offline, 'index.html');
  const html = await readFile(indexFile, 'utf8');
  if (!html.includes('</body>')) throw new Error(`no </body> in ${indexFile}`);
  await writeFile(indexFile, html.replace('</body>', `<script>${REGISTER_SCRIPT}</script></body>`));
  return { bare, offline, stack };
}

export interface AnchorServer {
  url: string;
  /** The built folder it serves. */
  dir: string;
  pid: number;
  stop(): Promise<void>;
}

/** Serves a built anchor with serve.ts in a process of its own; resolves once it listens. */
export function startAnchorServer(dir: string): Promise<AnchorServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ANCHORS_DIR, 'serve.ts'), dir], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the anchor server for ${dir} did not listen in 60 s`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the anchor server for ${dir} exited with ${code}`));
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({ url: (JSON.parse(line) as { url: string }).url, dir, pid: child.pid!, stop });
    });
  });
}
