/**
 * A project's build (`npm run build` in `root`) served as `npm start` serves it, on a free port of
 * loopback with a fresh PGlite folder and the demo community, for the bench's scripts that load
 * its pages in Chromium.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from '../../src/shared/api.ts';

export interface BuiltServer {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export async function startBuiltServer(root: string): Promise<BuiltServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-built-server-db-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO_DATA: 'true' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); ; ) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() - started > 120_000) throw new Error('server did not answer in 120 s');
    // /readyz, not a page: a page is served (as the bare shell) while the demo is still seeded.
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) break;
    await new Promise((done) => setTimeout(done, 200));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The pages the bench loads in the demo community: /home, the newest post, its author's user centre. */
export async function demoPagesOf(server: BuiltServer): Promise<{ home: string; detail: string; usercenter: string }> {
  const feed = (await (
    await fetch(`${server.url}${api.channelPosts.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tab":"all","size":1}' })
  ).json()) as { data: { list: Array<{ id: number; user: { uid: number } }> } };
  const newest = feed.data.list[0]!;
  return { home: '/home', detail: `/message/detail/${newest.id}`, usercenter: `/usercenter/${newest.user.uid}` };
}
