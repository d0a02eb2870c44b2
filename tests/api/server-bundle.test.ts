/**
 * The server bundle (`npm run build:server`, esbuild) keeps the demo seed off its start path:
 * main.ts reaches the seed only through a dynamic import taken when the database is empty, and
 * the seed's content stays in src/server/seed/seed-data/*.json, read from disk at seed time. A
 * built server still seeds an empty database on its first start.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { projectRoot } from '../../src/server/config.ts';
import { seedDataDir } from '../../src/server/seed/seed-content.ts';
import { freePort } from '../support/ports.ts';

const root = projectRoot();
const run = promisify(execFile);

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string }[] }>;
}

/** Every string of the seed's data files (the texts a start must never parse). */
function seedTexts(): string[] {
  const texts: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const file of readdirSync(seedDataDir())) walk(JSON.parse(readFileSync(join(seedDataDir(), file), 'utf8')));
  // Long, distinctive ones (names like "Go", a channel key or a snippet's indented `}` could
  // appear in any code), and no links: the server has its own defaults such as the AI assistant's URL.
  return texts.filter((text) => text.trim().length >= 12 && !/^(https?:|\/)/.test(text));
}

/** How esbuild writes a string literal with its default ASCII charset. */
const asciiEscaped = (text: string) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

let outDir: string;
let bundle: string;
let metafile: Metafile;

beforeAll(async () => {
  // Inside the project, so projectRoot() finds package.json from the bundle as it does from dist/.
  const cache = join(root, 'node_modules/.cache');
  await mkdir(cache, { recursive: true });
  outDir = await mkdtemp(join(cache, 'server-bundle-'));
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['build:server'];
  if (!script?.startsWith('esbuild ')) throw new Error(`unexpected build:server script: ${script}`);
  // The real build's flags, with the output moved here and a metafile added.
  const args = script
    .split(/\s+/)
    .slice(1)
    .map((arg) => (arg.startsWith('--outfile=') ? `--outfile=${join(outDir, 'main.js')}` : arg));
  await run(join(root, 'node_modules/.bin/esbuild'), [...args, `--metafile=${join(outDir, 'meta.json')}`], { cwd: root });
  bundle = readFileSync(join(outDir, 'main.js'), 'utf8');
  metafile = JSON.parse(readFileSync(join(outDir, 'meta.json'), 'utf8')) as Metafile;
});
afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('the server bundle', () => {
  it('reaches the seed only through a dynamic import from main.ts', () => {
    const seed = relative(root, join(root, 'src/server/seed/seed.ts'));
    const importers = Object.entries(metafile.inputs).flatMap(([input, { imports }]) =>
      imports.filter((entry) => entry.path === seed).map((entry) => ({ input, kind: entry.kind })),
    );
    expect(importers).toEqual([{ input: 'src/server/main.ts', kind: 'dynamic-import' }]);
  });

  it('carries none of the seed content', () => {
    const texts = seedTexts();
    expect(texts.length).toBeGreaterThan(100);
    const inBundle = texts.filter((text) => bundle.includes(text) || bundle.includes(asciiEscaped(text)));
    expect(inBundle).toEqual([]);
    // The data files are not bundled as modules either.
    expect(Object.keys(metafile.inputs).filter((input) => input.includes('seed-data'))).toEqual([]);
  });

  // Start-up runs initdb, the migrations and the seed: slow alone, and far slower beside the rest
  // of the api project's servers on a small machine.
  it('seeds an empty database on its first start', { timeout: 200_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bundle-start-'));
    const port = await freePort();
    const child = spawn(process.execPath, [join(outDir, 'main.js')], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, CLIENT_DIR: join(outDir, 'no-client'), LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let posts: unknown[] = [];
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline && posts.length === 0) {
        const answer = await fetch(`http://127.0.0.1:${port}${api.channelPosts.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ size: 5 }),
        }).then(
          (response) => response.json() as Promise<{ code: number; data?: { list: unknown[] } }>,
          () => undefined,
        );
        posts = answer?.data?.list ?? [];
        if (posts.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(posts).toHaveLength(5);
    } finally {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
