/**
 * One process per PGlite folder: a second server started on a DATA_DIR in
 * use is refused with a clear message (exit 1, no stack trace) before it opens anything, and
 * the first one's data stays as it was; a second open in the same process is refused too; a
 * lock left by a process that died is taken over; a closed database frees the folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { DataDirInUseError, LOCK_FILE } from '../../src/server/db/data-dir-lock.ts';
import { migrationsFolder, openTestDatabase, queryRows } from '../support/db.ts';
import { callOver, removeServerBundle, startServerProcess } from '../support/server-process.ts';

const folders: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pglite-lock-'));
  folders.push(dir);
  return dir;
}
afterAll(async () => {
  await removeServerBundle();
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

const countNotes = async (db: Parameters<typeof queryRows>[0]) =>
  Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from notes`))[0]!.n);

describe('a PGlite folder in use', () => {
  it('refuses a second server process with a clear message, and the first one keeps its data', { timeout: 120_000 }, async () => {
    const dataDir = await folder();
    const first = await openTestDatabase({ dataDir });
    try {
      await first.db.execute(sql`insert into notes (user_id, content) values (1, '第一个进程写的笔记')`);
      const before = await countNotes(first.db);
      const second = await startServerProcess({ env: { DATA_DIR: dataDir }, waitUntilReady: false });
      const exit = await Promise.race([second.exited, new Promise((resolve) => setTimeout(() => resolve('still running after 30 s'), 30_000))]);
      await second.kill();
      expect(exit).toMatchObject({ code: 1 });
      expect(second.output()).toContain(`DATA_DIR ${dataDir} is in use by another server process (pid ${process.pid}`);
      expect(second.output()).toContain('stop the other process');
      expect(second.output()).not.toMatch(/\bat .*\.(ts|js):\d+/);
      expect(await countNotes(first.db)).toBe(before);
      // A second open in the same process is refused as well.
      await expect(openDatabase({ dataDir, migrationsFolder })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await first.close();
    }
    // Closed: the folder is free, and a server starts on it with the data as left.
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const server = await startServerProcess({ env: { DATA_DIR: dataDir } });
    try {
      const answer = await callOver<{ list: unknown[] }>(server.url, api.channelPosts.path, { size: 3 });
      expect(answer.body.data?.list).toHaveLength(3);
    } finally {
      await server.stop();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('takes over the lock of a process that died', async () => {
    const dataDir = await folder();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    // The seeded database written into the folder, then a lock as a killed process leaves it.
    await (await openTestDatabase({ dataDir })).close();
    await writeFile(join(dataDir, LOCK_FILE), JSON.stringify({ pid: dead, host: hostname(), since: '2026-01-01T00:00:00Z' }));
    const database = await openDatabase({ dataDir, migrationsFolder });
    try {
      expect((await queryRows<{ n: number }>(database.db, sql`select 1 as n`))[0]!.n).toBe(1);
    } finally {
      await database.close();
    }
    // A lock half-written by a process that died while writing it is stale too.
    await writeFile(join(dataDir, LOCK_FILE), '{"pid": 12');
    const again = await openDatabase({ dataDir, migrationsFolder });
    await again.close();
  });
});
