/**
 * Benchmarks (not tests): `npm run bench`. Prints figures; asserts nothing, because these
 * machines are shared and noisy. Needs `npm run build` first for the bundle and start-up rows.
 *
 *   npm run bench                 all
 *   npm run bench -- feed         one group: seed | feed | bundle | startup
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { api } from '../../src/shared/api.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, projectRoot } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { seedDemoData } from '../../src/server/db/seed.ts';
import { startPostgres } from '../support/db.ts';

const root = projectRoot();
const config = loadConfig({});
const only = process.argv[2];
const rows: [string, string][] = [];
const report = (name: string, value: string) => {
  rows.push([name, value]);
  console.log(`${name.padEnd(58)} ${value}`);
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function seedBench() {
  const started = performance.now();
  const database = await openDatabase({ migrationsFolder: config.migrationsFolder });
  const migrated = performance.now();
  await seedDemoData(database.db);
  const seeded = performance.now();
  await database.close();
  report('PGlite in memory: create + migrate', `${(migrated - started).toFixed(0)} ms`);
  report('PGlite: seed demo data', `${(seeded - migrated).toFixed(0)} ms`);
}

/** Concurrent HTTP load on loopback, bounded in count and time. */
async function load(url: string, body: () => unknown, total: number, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const deadline = Date.now() + 60_000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && Date.now() < deadline) {
        next++;
        const t0 = performance.now();
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body()),
        });
        const json = (await response.json()) as { code: number };
        if (json.code !== 0) errors++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    errors,
    count: latencies.length,
  };
}

async function feedBench(name: string, database: Database) {
  const app: FastifyInstance = await buildApp({ config, db: database.db, serveClient: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `${address}${api.channelPosts.path}`;
  await load(url, () => ({ tab: 'all', size: 20 }), 50, 5); // warm-up
  const cases: [string, () => unknown][] = [
    ['first page, all', () => ({ tab: 'all', size: 20 })],
    ['deep page, all (index 100)', () => ({ tab: 'all', index: 100, size: 20 })],
    ['one channel', () => ({ channel_id: 1 + Math.floor(Math.random() * 10), size: 20 })],
    ['featured', () => ({ tab: 'good', size: 20 })],
  ];
  for (const [label, body] of cases) {
    const result = await load(url, body, 600, 20);
    report(
      `${name}: channel/posts ${label} (20 conns)`,
      `${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ${result.errors} errors / ${result.count}`,
    );
  }
  await app.close();
}

async function feedBenches() {
  const pglite = await openDatabase({ migrationsFolder: config.migrationsFolder });
  await seedDemoData(pglite.db);
  await feedBench('PGlite', pglite);
  await pglite.close();

  if (!existsSync('/usr/lib/postgresql')) {
    report('PostgreSQL', 'skipped: not installed');
    return;
  }
  const server = await startPostgres();
  try {
    const postgres = await openDatabase({ databaseUrl: server.url, migrationsFolder: config.migrationsFolder, poolSize: 20 });
    await seedDemoData(postgres.db);
    await feedBench('PostgreSQL', postgres);
    await postgres.close();
  } finally {
    await server.stop();
  }
}

function bundleBench() {
  const clientDir = join(root, 'dist/client');
  const indexFile = join(clientDir, 'index.html');
  if (!existsSync(indexFile)) {
    report('bundle', 'skipped: run npm run build first');
    return;
  }
  const html = readFileSync(indexFile, 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
  let raw = 0;
  let gzip = 0;
  for (const asset of assets) {
    const bytes = readFileSync(join(clientDir, asset));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  report('/home initial JS + CSS (index.html references)', `${(raw / 1024).toFixed(1)} KiB raw, ${(gzip / 1024).toFixed(1)} KiB gzip, ${assets.length} files`);
  const sw = join(clientDir, 'sw.js');
  if (existsSync(sw)) report('service worker sw.js', `${(statSync(sw).size / 1024).toFixed(1)} KiB raw`);
  // What every start parses (the demo seed's content is read from disk only when seeding).
  const server = join(root, 'dist/server/main.js');
  if (existsSync(server)) report('server bundle dist/server/main.js', `${(statSync(server).size / 1024).toFixed(1)} KiB raw`);
}

async function startOnce(dataDir: string): Promise<number> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'dist/server/main.js')], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (performance.now() - started > 60_000) throw new Error('server did not start in 60 s');
      const ok = await fetch(`http://127.0.0.1:${port}/serv/v1/user/auth`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function startupBench() {
  if (!existsSync(join(root, 'dist/server/main.js'))) {
    report('start-up', 'skipped: run npm run build first');
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-start-'));
  try {
    report('npm start (built): first start, migrate + seed, until answering', `${(await startOnce(dataDir)).toFixed(0)} ms`);
    report('npm start (built): later start on existing data', `${(await startOnce(dataDir)).toFixed(0)} ms`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const groups: Record<string, () => Promise<void> | void> = {
  seed: seedBench,
  feed: feedBenches,
  bundle: bundleBench,
  startup: startupBench,
};
for (const [name, run] of Object.entries(groups)) {
  if (!only || only === name) await run();
}
