/**
 * `npm run build` makes a release: the lines of src/server/README.md's release block, run as
 * written in an empty folder (npm installing from its cache), give a server that starts with
 * production dependencies only, migrates and seeds an empty PGlite folder, answers its probes and
 * its page, and whose shipped tools (`npm run backup`, `restore`, `moderator`, all `node
 * dist/server/...`) back up a running server and restore the backup into an empty folder.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/config.ts';
import { freePort } from '../support/ports.ts';

const root = projectRoot();
const run = promisify(execFile);
const DOC = readFileSync(join(root, 'src/server/README.md'), 'utf8');
/** The demo's moderator (seed), whom `moderator list` names once the demo is in. */
const DEMO_MODERATOR = '码农老王';

/** What the build must have made for the release (the doc's table). */
const BUILT = [
  'dist/client/index.html',
  'dist/ssr/first-screen.js',
  'dist/server/main.js',
  ...['backup', 'restore', 'export-to-postgres', 'moderator'].map((tool) => `dist/server/${tool}.js`),
  'dist/server/migrations/meta/_journal.json',
  'dist/server/seed-data',
];

/** The words of the release block's line starting with `start` (comments dropped). */
function releaseLine(start: string): string[] {
  const block = [...DOC.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).find((text) => text.includes('tar -czf'));
  expect(block, 'src/server/README.md has a ```sh block that packs the release with tar -czf').toBeDefined();
  const lines = block!.split('\n').map((line) => line.replace(/#.*/, '').trim());
  const line = lines.find((text) => text.startsWith(start));
  expect(line, `the release block has a line starting "${start}"`).toBeDefined();
  return line!.split('&&')[0]!.trim().split(/\s+/);
}

/** The environment of a host: nothing of this project's or the test's, only what finds node, npm and its cache. */
const hostEnv = (env: Record<string, string> = {}) => ({ PATH: process.env.PATH!, HOME: process.env.HOME!, ...env });

let work: string;
let host: string;

beforeAll(async () => {
  // .ci/test builds before the api tests; alone, the test builds what is missing.
  if (BUILT.some((path) => !existsSync(join(root, path)))) await run('npm', ['run', '--silent', 'build'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  work = await mkdtemp(join(tmpdir(), 'release-test-'));
  host = join(work, 'srv-community');
  await mkdir(host);
}, 240_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

interface ReleasedServer {
  url: string;
  output(): string;
  stop(): Promise<number | null>;
}

/** `node --enable-source-maps dist/server/main.js` in the host folder, as the systemd unit starts it; resolves once /readyz answers 200. */
async function startServer(): Promise<ReleasedServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
    cwd: host,
    env: hostEnv({ PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started: ReleasedServer = {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the released server exited with ${child.exitCode}:\n${output.slice(-3000)}`);
    const ready = await fetch(`${started.url}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) return started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await started.stop();
  throw new Error(`the released server was not ready within 60 s:\n${output.slice(-3000)}`);
}

/** `npm run --silent <script> -- args` in the host folder. */
async function npmRun(script: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', script, '--', ...args], { cwd: host, env: hostEnv(env) });
  return stdout;
}

describe('the release', () => {
  it('ships as the doc says, installs with --omit=dev, starts, migrates, seeds, backs up and restores', { timeout: 180_000 }, async () => {
    // Packed on the build machine as written (the archive's name moved into the test's folder).
    const [tar, create, , ...shipped] = releaseLine('tar -czf');
    expect([tar, create]).toEqual(['tar', '-czf']);
    expect(shipped).toEqual(expect.arrayContaining(['dist/server', 'package.json', 'package-lock.json']));
    expect(shipped.some((path) => path === 'src' || path.startsWith('src/') || path === 'node_modules')).toBe(false);
    const archive = join(work, 'community.tar.gz');
    await run('tar', ['-czf', archive, ...shipped], { cwd: root });
    await run('tar', ['-xzf', archive, '-C', host]);
    expect((await readdir(host)).sort()).toEqual([...new Set(shipped.map((path) => path.split('/')[0]!))].sort());

    // Installed as written, from npm's cache when it has the packages.
    const [npm, ...install] = releaseLine('npm ci --omit=dev');
    expect(npm).toBe('npm');
    expect(install).toContain('--omit=dev');
    await run('npm', [...install, '--prefer-offline'], { cwd: host, env: hostEnv(), maxBuffer: 16 * 1024 * 1024 });
    expect(existsSync(join(host, 'node_modules/fastify/package.json'))).toBe(true);
    // Dev dependencies stay out: no TypeScript runner to lean on.
    expect(existsSync(join(host, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(join(host, 'node_modules/esbuild'))).toBe(false);

    // An empty PGlite folder (DATA_DIR's default, ./data): migrated and seeded from the release's own copies.
    const server = await startServer();
    let backup: string;
    try {
      expect(server.output()).toContain('seeded demo data');
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const page = await fetch(`${server.url}/`);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')]);
      expect(await npmRun('moderator', ['list'])).toContain(DEMO_MODERATOR);
      // A backup of the running server, through its admin socket.
      backup = join(work, 'community-backup.tar.gz');
      expect(await npmRun('backup', [backup])).toContain('backed up');
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // Restored into an empty folder (the tool opens the database it wrote before it says so).
    const restored = join(host, 'restored');
    expect(await npmRun('restore', [backup], { DATA_DIR: restored })).toContain(`restored ${backup} into ${restored}`);
    expect(existsSync(join(restored, 'PG_VERSION'))).toBe(true);

    // The move to PostgreSQL loads with production dependencies only (it says how it is used).
    const exported = await run(process.execPath, ['dist/server/export-to-postgres.js'], { cwd: host, env: hostEnv() }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in exported ? [exported.code, exported.stderr] : []).toEqual([1, expect.stringContaining('usage')]);
  });
});
