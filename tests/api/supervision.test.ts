/**
 * Under a supervisor (systemd, a container runtime) the server is stopped with SIGTERM or SIGINT
 * sent to the process it started. Started through npm (`npm start` ends in `npm run serve`), that
 * process is npm: the signal must reach the server, which closes its port and its PGlite folder
 * (the folder's lock released), and nothing is left running. Needs the build's
 * dist/server/main.js (made here when missing).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it, describe, beforeAll } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { LOCK_FILE } from '../../src/server/db/data-dir-lock.ts';
import { projectRoot } from '../../src/server/config.ts';
import { migrationsFolder } from '../support/db.ts';
import { startServerProcess } from '../support/server-process.ts';

const root = projectRoot();

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/server/main.js'))) await promisify(execFile)('npm', ['run', '--silent', 'build:server'], { cwd: root });
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('npm start ends by handing its process to npm run serve, which hands it to the server', () => {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  // A shell that runs a command and waits keeps a signal to itself: each hands its process over.
  expect(scripts.start).toMatch(/&& exec npm run serve$/);
  expect(scripts.serve).toMatch(/^exec node /);
});

describe.each(['SIGTERM', 'SIGINT'] as const)('%s to the npm process', (signal) => {
  it('stops the server: its port closes, its data folder is free again, no process is left', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'supervised-'));
    let serverPid: number | undefined;
    try {
      const server = await startServerProcess({ env: { DATA_DIR: dataDir }, throughNpm: true });
      const pid = (JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as { pid: number }).pid;
      serverPid = pid;
      expect(pid).not.toBe(server.child.pid);
      expect(isRunning(pid)).toBe(true);

      server.child.kill(signal);
      await server.exited;
      await expect.poll(() => isRunning(pid), { timeout: 30_000 }).toBe(false);
      await expect(fetch(`${server.url}/serv/v1/complain/reasons`, { method: 'POST', body: '{}' })).rejects.toThrow();
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
      expect(server.output()).toContain('shutting down');
      // Another server may open the folder now.
      const again = await openDatabase({ dataDir, migrationsFolder });
      await again.close();
    } finally {
      // An orphan left by a failure is not left running.
      if (serverPid !== undefined && isRunning(serverPid)) process.kill(serverPid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
