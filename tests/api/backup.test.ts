/**
 * Backups and moving up: a PGlite community (the seed, then a post with an uploaded image, a
 * comment and a like made through the API) backed up, restored into a fresh folder and exported
 * to an empty PostgreSQL database, each time with every table's rows the same, counters
 * consistent, and new ids continuing after the copied ones. The tools refuse a folder in use,
 * a non-empty restore target without --force, and a non-empty PostgreSQL database. A backup
 * made by `npm run backup` while a server process takes writes restores to a folder a server
 * opens, with counters consistent and every write acknowledged before the backup began.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { projectRoot } from '../../src/server/config.ts';
import type { Comment, Post } from '../../src/shared/schemas.ts';
import { backupSocketPath } from '../../src/server/db/backup-socket.ts';
import { openDatabase, type Database, type Db } from '../../src/server/db/client.ts';
import { DataDirInUseError } from '../../src/server/db/data-dir-lock.ts';
import { backupDataDir } from '../../src/server/tools/backup.ts';
import { exportToPostgres } from '../../src/server/tools/export-to-postgres.ts';
import { restoreDataDir } from '../../src/server/tools/restore.ts';
import { createTestApp, newClientId } from '../support/api.ts';
import { counterMismatches, migrationsFolder, openTestDatabase, queryRows, startPostgres, type PostgresServer } from '../support/db.ts';
import { makePng, upload } from '../support/images.ts';
import { callOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

/** md5 of every row of each public table, as text in one order, whatever the session's time zone. */
async function digests(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(db, sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    out[name] = await db.transaction(async (tx) => {
      await tx.execute(sql`set local timezone = 'UTC'`);
      const [row] = await queryRows<{ d: string; n: number }>(
        tx as unknown as Db,
        sql.raw(`select md5(coalesce(string_agg(t::text, E'\\n' order by t::text collate "C"), '')) || ':' || count(*) as d from "${name}" t`),
      );
      return row!.d;
    });
  }
  return out;
}

const expectConsistentCounters = async (db: Db) => {
  const mismatches = await counterMismatches(db);
  expect(Object.entries(mismatches).filter(([, n]) => n !== 0)).toEqual([]);
};

let root: string;
let communityDir: string;
let community: Record<string, string>;
let written: { postId: number; imageUrl: string };

beforeAll(async () => {
  // `npm run backup` runs the built tool: .ci/test builds before the api tests; alone, the test builds the tools.
  if (!existsSync(join(projectRoot(), 'dist/server/backup.js'))) await promisify(execFile)('npm', ['run', '--silent', 'build:tools'], { cwd: projectRoot() });
  root = await mkdtemp(join(tmpdir(), 'backup-test-'));
  communityDir = join(root, 'community');
  const t = await createTestApp(await openTestDatabase({ dataDir: communityDir }), { closeDatabase: true });
  try {
    const me = await t.login('15600020001');
    const image = await upload(t, me.ticket, await makePng(24, 16));
    if (image.body.code !== 0) throw new Error(`upload failed: ${JSON.stringify(image.body)}`);
    const imageUrl = image.body.data.url;
    const post = (
      await t.call<Post>(api.postAdd, { content: '备份之前的动态', channel_id: [1], attach: [{ type: 'image', url: imageUrl }], client_id: newClientId('backup') }, { ticket: me.ticket })
    ).data();
    (await t.call(api.commentAdd, { post_id: post.id, content: '备份之前的评论', client_id: newClientId('backup') }, { ticket: me.ticket })).data();
    (await t.call(api.likeAdd, { post_id: post.id, type: 1 }, { ticket: me.ticket })).data();
    written = { postId: post.id, imageUrl };
  } finally {
    await t.close();
  }
  // Read once the app is closed: what it writes after answering (rate-limit windows) is in the folder by then.
  const closed = await openDatabase({ dataDir: communityDir, migrationsFolder });
  try {
    community = await digests(closed.db);
  } finally {
    await closed.close();
  }
}, 120_000);

afterAll(async () => {
  await removeServerBundle();
  await rm(root, { recursive: true, force: true });
});

describe('backup and restore of a PGlite folder', () => {
  it('restores into a fresh folder the same rows, counters and sequences', { timeout: 120_000 }, async () => {
    const file = join(root, 'community.tar.gz');
    await backupDataDir(communityDir, file);
    const restoredDir = join(root, 'restored');
    await restoreDataDir(file, restoredDir);
    const restored = await openDatabase({ dataDir: restoredDir, migrationsFolder });
    try {
      expect(await digests(restored.db)).toEqual(community);
      expect(community.posts).toContain(':'); // the digest counts rows too
      const [{ n }] = (await queryRows<{ n: number }>(restored.db, sql`select count(*)::int as n from likes where target_id = ${written.postId}`)) as [{ n: number }];
      expect(n).toBe(1);
      await expectConsistentCounters(restored.db);
    } finally {
      await restored.close();
    }
  });

  it('refuses a folder a server has open, and a non-empty target unless forced', { timeout: 120_000 }, async () => {
    const file = join(root, 'refusals.tar.gz');
    const open = await openDatabase({ dataDir: communityDir, migrationsFolder });
    try {
      // Held by a process that serves no backup socket: one clear line, no file.
      await expect(backupDataDir(communityDir, file)).rejects.toThrow(new RegExp(`server holding .* \\(pid ${process.pid} .*did not answer`));
      expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
    } finally {
      await open.close();
    }
    await backupDataDir(communityDir, file);

    const target = join(root, 'occupied');
    await restoreDataDir(file, target);
    const inUse = await openDatabase({ dataDir: target, migrationsFolder });
    try {
      await expect(restoreDataDir(file, target, { force: true })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await inUse.close();
    }
    await writeFile(join(target, 'stray'), 'x');
    await expect(restoreDataDir(file, target)).rejects.toThrow(/not empty.*--force/);
    await restoreDataDir(file, target, { force: true });
    const forced = await openDatabase({ dataDir: target, migrationsFolder });
    try {
      expect(await digests(forced.db)).toEqual(community);
    } finally {
      await forced.close();
    }
    expect(await readdir(target)).not.toContain('server.lock');
  });
});

describe('export of a PGlite community to PostgreSQL', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('copies every table with its ids; the server then runs on it and new ids continue', { timeout: 180_000 }, async () => {
    const { rows } = await exportToPostgres(communityDir, server.url, migrationsFolder);
    expect(rows.posts).toBeGreaterThan(0);
    const target: Database = await openDatabase({ databaseUrl: server.url, migrationsFolder });
    const exported = await digests(target.db);
    const t = await createTestApp(target, { closeDatabase: true });
    try {
      expect(exported).toEqual(community);
      await expectConsistentCounters(target.db);

      const image = await t.app.inject({ method: 'GET', url: written.imageUrl });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toMatch(/^image\//);

      const [{ max }] = (await queryRows<{ max: number }>(target.db, sql`select max(id)::int as max from posts`)) as [{ max: number }];
      const me = await t.login('15600020002');
      const post = (await t.call<Post>(api.postAdd, { content: '搬家之后的动态', channel_id: [1], client_id: newClientId('moved') }, { ticket: me.ticket })).data();
      expect(post.id).toBe(max + 1);
      const detail = (await t.call<Post>(api.postDetail, { post_id: written.postId }, { ticket: me.ticket })).data();
      expect([detail.like_count, detail.comment_count]).toEqual([1, 1]);
    } finally {
      await t.close();
    }
    await expect(exportToPostgres(communityDir, server.url, migrationsFolder)).rejects.toThrow(/not empty/);
  });
});

const SERVER_ENV = { WRITE_LIMIT_PER_MINUTE: '100000', DAILY_COMMENT_LIMIT: '100000', MAX_CONNECTIONS_PER_ADDRESS: '1000', REQUEST_LIMIT_PER_ADDRESS: '100000', REQUEST_LIMIT_PER_USER: '100000' };

/** The ticket as the app that logged in sends it: the Ticket header with its Device-Id. */
const asApp = (ticket: string) => ({ headers: { ticket, 'device-id': 'backup-test-device' } });

async function logIn(server: ServerProcess, phone: string): Promise<string> {
  await callOver(server.url, api.loginCode.path, { cellphone: phone });
  for (let i = 0; i < 100 && !server.codeFor(phone); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const answer = await callOver<{ ticket: string }>(server.url, api.login.path, { cellphone: phone, code: server.codeFor(phone), device_kind: 'pc' }, { headers: { 'device-id': 'backup-test-device' } });
  if (!answer.body.data) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  return answer.body.data.ticket;
}

describe('backup of a PGlite folder while its server takes writes', () => {
  it('npm run backup asks the server; the tarball opens with consistent counters and every write acknowledged before it', { timeout: 240_000 }, async () => {
    const seedFile = join(root, 'live-seed.tar.gz');
    await backupDataDir(communityDir, seedFile);
    const liveDir = join(root, 'live');
    await restoreDataDir(seedFile, liveDir);
    const server = await startServerProcess({ env: { ...SERVER_ENV, DATA_DIR: liveDir } });
    const file = join(root, 'live.tar.gz');
    // Comment ids acknowledged (answered code 0), and those acknowledged before the backup began.
    const acknowledged: number[] = [];
    let beforeBackup: number[] = [];
    let writing = true;
    let writers: Promise<void>[] = [];
    let failure: unknown;
    try {
      const socket = await stat(backupSocketPath(liveDir));
      expect([socket.isSocket(), socket.mode & 0o777]).toEqual([true, 0o600]);
      const ticket = await logIn(server, '15600020003');
      // Four writers at once, each a comment (its post's comment_count) then a like on it (its like_count).
      writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; writing; i++) {
          const answer = await callOver<Comment>(server.url, api.commentAdd.path, { post_id: written.postId, content: `备份时写的评论 ${w}-${i}`, client_id: newClientId('live') }, asApp(ticket));
          if (answer.body.code !== 0) throw new Error(`comment failed: ${JSON.stringify(answer.body)}`);
          acknowledged.push(answer.body.data!.id);
          const like = await callOver(server.url, api.likeAdd.path, { comment_id: answer.body.data!.id, type: 1 }, asApp(ticket));
          if (like.body.code !== 0) throw new Error(`like failed: ${JSON.stringify(like.body)}`);
        }
      }).map((writer) =>
        writer.catch((error: unknown) => {
          failure ??= error;
          writing = false;
        }),
      );
      while (acknowledged.length < 40 && writing) await new Promise((resolve) => setTimeout(resolve, 20));
      beforeBackup = [...acknowledged];
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'backup', '--', file], { env: { ...process.env, DATA_DIR: liveDir } });
      expect(stdout).toContain(`backed up ${liveDir}`);
      const duringBackup = acknowledged.length - beforeBackup.length;
      writing = false;
      await Promise.all(writers);
      if (failure) throw failure;
      expect(duringBackup, 'writes went on while the backup was made').toBeGreaterThan(0);
    } finally {
      writing = false;
      await Promise.all(writers);
      await server.stop();
    }
    expect(existsSync(backupSocketPath(liveDir)), 'the socket is removed at shutdown').toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(false);

    const restoredDir = join(root, 'live-restored');
    await restoreDataDir(file, restoredDir);
    const reopened = await startServerProcess({ env: { ...SERVER_ENV, DATA_DIR: restoredDir } });
    try {
      const detail = await callOver<Post>(reopened.url, api.postDetail.path, { post_id: written.postId });
      expect(detail.body.data?.comment_count).toBeGreaterThanOrEqual(1 + beforeBackup.length);
    } finally {
      await reopened.stop();
    }
    const restored = await openDatabase({ dataDir: restoredDir, migrationsFolder });
    try {
      await expectConsistentCounters(restored.db);
      const rows = await queryRows<{ id: number }>(restored.db, sql`select id from comments where content like '备份时写的评论 %'`);
      const present = new Set(rows.map((row) => row.id));
      expect(beforeBackup.filter((id) => !present.has(id)), 'acknowledged before the backup, missing from it').toEqual([]);
      expect(present.size).toBeLessThanOrEqual(acknowledged.length);
    } finally {
      await restored.close();
    }
  });
});
