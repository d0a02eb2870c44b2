/**
 * `npm run moderator -- add|remove|list <phone or uid>` on a PGlite folder, as an operator runs
 * it (its own process, DATA_DIR naming the folder): a user found by phone or uid becomes a
 * moderator and stops being one, the list names them with a masked phone. While a server process
 * has the folder open, the server runs the command (its admin socket), and the new moderator's
 * next call is a moderator's. An unknown user, a wrong command, and a folder held by a process
 * that serves no admin socket are one clear line and exit 1, nothing changed.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { api } from '../../src/shared/api.ts';
import { DEMO_MODERATOR_CELLPHONE } from '../../src/server/seed/seed.ts';
import { migrationsFolder, openTestDatabase, queryRows } from '../support/db.ts';
import { callOver, removeServerBundle, startServerProcess } from '../support/server-process.ts';

const run = promisify(execFile);

let root: string;
let dataDir: string;

/** The tool run as `npm run moderator` runs it; its output, or its failure's. */
async function tool(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', join(projectRoot(), 'src/server/tools/moderator.ts'), ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      timeout: 60_000,
    });
    return { code: 0, out: stdout.trim(), err: stderr.trim() };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout.trim(), err: failed.stderr.trim() };
  }
}

async function moderatorIds(): Promise<number[]> {
  const database = await openDatabase({ dataDir, migrationsFolder });
  try {
    return (await queryRows<{ id: number }>(database.db, sql`select user_id as id from moderators order by user_id`)).map((row) => row.id);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'moderator-tool-'));
  dataDir = join(root, 'data');
  await (await openTestDatabase({ dataDir })).close();
}, 60_000);
afterAll(async () => {
  await removeServerBundle();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('npm run moderator', () => {
  it('adds a user by phone or uid, lists them masked, and removes them', { timeout: 120_000 }, async () => {
    expect(await moderatorIds()).toEqual([2]);
    expect(await tool('add', '13800000000')).toMatchObject({ code: 0, out: expect.stringMatching(/^极客小明 \(uid 1, 138\*\*\*\*0000\) is now a moderator$/) });
    expect((await tool('add', '1')).out).toMatch(/was a moderator already$/);
    const listed = await tool('list');
    expect(listed.code).toBe(0);
    expect(listed.out.split('\n')).toHaveLength(2);
    expect(listed.out).toContain(`${DEMO_MODERATOR_CELLPHONE.slice(0, 3)}****${DEMO_MODERATOR_CELLPHONE.slice(-4)}`);
    expect(listed.out).not.toContain(DEMO_MODERATOR_CELLPHONE);
    expect(await moderatorIds()).toEqual([1, 2]);
    expect((await tool('remove', '1')).out).toMatch(/is no longer a moderator$/);
    expect(await moderatorIds()).toEqual([2]);
  });

  it('says in one line what is wrong, exits 1 and changes nothing', { timeout: 120_000 }, async () => {
    for (const [args, message] of [
      [['add', '13999999999'], /^no user with phone 13999999999/],
      [['promote', '1'], /^usage: npm run moderator/],
    ] as const) {
      const answer = await tool(...args);
      expect(answer.code, args.join(' ')).toBe(1);
      expect(answer.err, args.join(' ')).toMatch(message);
      expect(answer.err.split('\n')).toHaveLength(1);
    }
    // A process holds the folder and serves no admin socket: the tool says to stop it.
    const holder = await openDatabase({ dataDir, migrationsFolder });
    try {
      const answer = await tool('add', '1');
      expect(answer.code).toBe(1);
      expect(answer.err).toMatch(/^the server holding .+ \(pid \d+ on .+\) did not answer: .+; stop it, run this again, then start it$/);
    } finally {
      await holder.close();
    }
    expect(await moderatorIds()).toEqual([2]);
  });

  it('asks the server that has the folder open, which runs the command: the new moderator is one at once', { timeout: 180_000 }, async () => {
    const server = await startServerProcess({ env: { DATA_DIR: dataDir, LOGIN_CODE_RESEND_SECONDS: '0' } });
    try {
      const phone = '13800000000';
      await callOver(server.url, api.loginCode.path, { cellphone: phone });
      // The code is in the server's log once it is written there.
      for (let i = 0; i < 200 && !server.codeFor(phone); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const login = await callOver<{ ticket: string }>(server.url, api.login.path, { cellphone: phone, code: server.codeFor(phone), device_kind: 'pc' }, {
        headers: { 'device-id': 'moderator-tool-test' },
      });
      if (!login.body.data) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
      const asApp = { headers: { ticket: login.body.data.ticket, 'device-id': 'moderator-tool-test' } };
      expect((await callOver(server.url, api.moderationLog.path, {}, asApp)).body).toMatchObject({ code: -1, error: { code: -1006 } });
      expect(await tool('add', phone)).toMatchObject({ code: 0, out: expect.stringMatching(/is now a moderator$/) });
      expect((await callOver(server.url, api.moderationLog.path, {}, asApp)).body).toMatchObject({ code: 0 });
      expect((await tool('list')).out.split('\n')).toHaveLength(2);
      expect(await tool('add', '13999999999')).toMatchObject({ code: 1, err: expect.stringMatching(/^no user with phone 13999999999/) });
      expect((await tool('remove', phone)).out).toMatch(/is no longer a moderator$/);
      expect((await callOver(server.url, api.moderationLog.path, {}, asApp)).body).toMatchObject({ code: -1, error: { code: -1006 } });
    } finally {
      await server.stop();
    }
    expect(await moderatorIds()).toEqual([2]);
  });
});
