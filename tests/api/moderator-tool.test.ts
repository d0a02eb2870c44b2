/**
 * `npm run moderator -- add|remove|list <phone or uid>` on a PGlite folder, as an operator runs
 * it (its own process, DATA_DIR naming the folder): a user found by phone or uid becomes a
 * moderator and stops being one, the list names them with a masked phone; a folder a server has
 * open, an unknown user and a wrong command are one clear line and exit 1, nothing changed.
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
import { DEMO_MODERATOR_CELLPHONE } from '../../src/server/db/seed.ts';
import { migrationsFolder, openTestDatabase, queryRows } from '../support/db.ts';

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
    // A server has the folder open: the tool says to stop it.
    const server = await openDatabase({ dataDir, migrationsFolder });
    try {
      const answer = await tool('add', '1');
      expect(answer.code).toBe(1);
      expect(answer.err).toMatch(/^the server \(pid \d+ on .+\) has .+ open, and a PGlite folder serves one process: stop it/);
    } finally {
      await server.close();
    }
    expect(await moderatorIds()).toEqual([2]);
  });
});
