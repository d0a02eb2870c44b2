/**
 * A PostgreSQL on the same host reached through its Unix socket (README, deploying): the real
 * server process takes DATABASE_URL in the socket form pg reads (`postgres://user@/db?host=DIR`,
 * a user and no host), migrates the database through it and serves a read and a write. The
 * PostgreSQL here listens on no TCP port at all, so whatever reached it came through the socket.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { startPostgres, type PostgresServer } from '../support/db.ts';
import { callOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

let postgres: PostgresServer | undefined;
let server: ServerProcess | undefined;

beforeAll(async () => {
  postgres = await startPostgres([], { socketOnly: true });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await removeServerBundle();
  await postgres?.stop();
});

describe('DATABASE_URL naming a Unix socket', () => {
  it('is taken at start, and the app reads and writes through the socket', async () => {
    const url = postgres!.socketUrl;
    expect(url).toMatch(/^postgres:\/\/postgres@\/community_test\?host=\/.+&port=\d+$/);
    server = await startServerProcess({ env: { DATABASE_URL: url, DATABASE_POOL_SIZE: '3' } });
    expect(server.output()).toMatch(/ready on http:\/\/127\.0\.0\.1:\d+ \(postgres, \d+ ms\)/);

    // A read of a migrated table.
    const reasons = await callOver<unknown[]>(server.url, api.complainReasons.path, {});
    expect(reasons.status).toBe(200);
    expect(reasons.body.code).toBe(0);
    // Writes: a login code stored, then a login that makes the user and its ticket.
    const phone = '13700000042';
    expect((await callOver(server.url, api.loginCode.path, { cellphone: phone })).body.code).toBe(0);
    await vi.waitFor(() => expect(server!.codeFor(phone)).toMatch(/^\d{6}$/));
    const code = server.codeFor(phone);
    const login = await callOver<{ uid: number }>(server.url, api.login.path, { cellphone: phone, code, device_kind: 'pc' });
    expect(login.body.code).toBe(0);

    const admin = new pg.Client({ host: postgres!.socketDir, port: postgres!.port, user: 'postgres', database: 'community_test' });
    await admin.connect();
    try {
      const users = await admin.query<{ id: number }>('select id from users where cellphone = $1', [phone]);
      expect(users.rows).toEqual([{ id: login.body.data!.uid }]);
      // The server's connections: all on the socket (no client address), at most the pool's size.
      const connections = await admin.query<{ n: number; tcp: number }>(
        `select count(*)::int as n, count(client_addr)::int as tcp from pg_stat_activity where datname = 'community_test' and pid <> pg_backend_pid()`,
      );
      expect(connections.rows[0]!.tcp).toBe(0);
      expect(connections.rows[0]!.n).toBeGreaterThanOrEqual(1);
      expect(connections.rows[0]!.n).toBeLessThanOrEqual(3);
    } finally {
      await admin.end();
    }
  }, 120_000);
});
