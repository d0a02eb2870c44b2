/**
 * A start whose database cannot be reached (src/server/boot.ts): the real server process says, in
 * one line per try, where the database is and why it failed, with no stack trace, and tries again
 * with growing pauses for DATABASE_RETRY_SECONDS before it exits with 1. Meanwhile it listens:
 * /healthz answers 200 and /readyz 503. A PostgreSQL that comes up within that time is used: the
 * process migrates it and becomes ready. What trying again cannot mend ends the start at once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { startPostgres, type PostgresServer } from '../support/db.ts';
import { freePort } from '../support/ports.ts';
import { callOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The log lines (pino JSON) whose message says the database could not be reached. */
function unreachableLines(output: string): { level: number; msg: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((entry) => entry.msg?.includes('unreachable'));
}

/** Polls `path` until its status is `status` (or the process ends). */
async function statusOf(server: ServerProcess, path: string, status: number, deadlineMs = 60_000): Promise<{ status: number; body: { code: number; error?: { code: number; msg: string } } }> {
  const deadline = Date.now() + deadlineMs;
  let last: { status: number; body: { code: number; error?: { code: number; msg: string } } } | undefined;
  while (Date.now() < deadline && server.child.exitCode === null) {
    try {
      const response = await fetch(`${server.url}${path}`);
      last = { status: response.status, body: (await response.json()) as NonNullable<typeof last>['body'] };
      if (last.status === status) return last;
    } catch {
      // not listening yet
    }
    await wait(100);
  }
  throw new Error(`${path} did not answer ${status} (last: ${JSON.stringify(last)})\n${server.output().slice(-2000)}`);
}

afterAll(async () => {
  await removeServerBundle();
});

describe('a database that cannot be reached at start', () => {
  it('says where and why in one line per try, keeps listening, and exits 1 after DATABASE_RETRY_SECONDS', async () => {
    const port = await freePort();
    const started = Date.now();
    const server = await startServerProcess({
      env: { DATABASE_URL: `postgres://community:secret-password@127.0.0.1:${port}/community`, DATABASE_RETRY_SECONDS: '3' },
      waitUntilReady: false,
    });
    try {
      expect((await statusOf(server, '/healthz', 200)).body.code).toBe(0);
      const ready = await statusOf(server, '/readyz', 503);
      expect(ready.body.error).toEqual({ code: ErrorCode.Internal, msg: '服务未就绪：正在连接数据库' });
      const exit = await server.exited;
      expect(exit).toEqual({ code: 1, signal: null });
      // Tries for the time it was given, not much longer.
      expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    } finally {
      await server.kill();
    }
    const output = server.output();
    const lines = unreachableLines(output);
    // The first try, and again after growing pauses; the last says it gave up.
    expect(lines.length, output).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      expect(line.msg).toContain(`database at 127.0.0.1:${port} unreachable: connect ECONNREFUSED 127.0.0.1:${port}`);
      expect(line.msg).not.toContain('\n');
    }
    expect(lines.slice(0, -1).every((line) => /; trying again in \d+(\.\d+)? s$/.test(line.msg)), output).toBe(true);
    expect(lines.at(-1)!.msg).toMatch(/; gave up after 3 s \(DATABASE_RETRY_SECONDS\)$/);
    // Nothing else was said about it: no stack trace, no password.
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('secret-password');
  }, 60_000);
});

describe('a PostgreSQL that comes up while the start waits for it', () => {
  let postgres: PostgresServer | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    await postgres?.stop();
  });

  it('is migrated and used, and the process becomes ready', async () => {
    const port = await freePort();
    // The database every server has from its first moment: community_test is created only once
    // the server is up, and a start that found it missing would end (as the next test shows).
    server = await startServerProcess({
      env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`, DATABASE_RETRY_SECONDS: '120' },
      waitUntilReady: false,
    });
    await statusOf(server, '/readyz', 503);
    while (unreachableLines(server.output()).length === 0) await wait(50);
    postgres = await startPostgres([], { port });
    const ready = await statusOf(server, '/readyz', 200, 90_000);
    expect(ready.body).toEqual({ code: 0, data: { status: 'ready' } });
    // Migrated: a call that reads its tables answers.
    const reasons = await callOver<unknown[]>(server.url, api.complainReasons.path, {});
    expect(reasons.body.code).toBe(0);
    // The address it listens on (HOST=127.0.0.1 in the tests), not localhost whatever HOST is.
    expect(server.output()).toContain(`ready on http://127.0.0.1:${server.port} (postgres, `);
    expect(server.child.exitCode).toBeNull();
  }, 150_000);

  it('ends a start at once, in one line, when trying again cannot help (a database that does not exist)', async () => {
    const url = postgres!.url.replace(/\/community_test$/, '/no_such_database');
    const failing = await startServerProcess({ env: { DATABASE_URL: url, DATABASE_RETRY_SECONDS: '120' }, waitUntilReady: false });
    try {
      expect(await failing.exited).toEqual({ code: 1, signal: null });
    } finally {
      await failing.kill();
    }
    const output = failing.output();
    // The line as the log writes it: JSON, its quotes escaped.
    expect(output).toContain(`cannot use the database at ${new URL(url).host}: database \\"no_such_database\\" does not exist`);
    expect(unreachableLines(output)).toEqual([]);
    expect(output).not.toMatch(/^\s+at /m);
  }, 60_000);
});
