/**
 * A rolling restart behind the deployment document's nginx site: two server processes on one
 * PostgreSQL behind nginx (the example, run for real), under reads and writes from several
 * clients at once, each process stopped with SIGTERM and started again on its port in turn, as
 * `systemctl restart community@3001`, then `@3002`, does. No request fails, and every write
 * acknowledged is in the database exactly once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import type { Comment } from '../../src/shared/schemas.ts';
import { block, startNginx } from '../support/deploy-doc.ts';
import { openPostgresTestDatabase, queryRows } from '../support/db.ts';
import { logInOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

afterAll(() => removeServerBundle());

/** Limits out of the way (every request comes from nginx's one address), the unit's drain and proxy settings. */
const ENV = {
  WRITE_LIMIT_PER_MINUTE: '100000',
  DAILY_COMMENT_LIMIT: '100000',
  MAX_CONNECTIONS_PER_ADDRESS: '1000',
  REQUEST_LIMIT_PER_ADDRESS: '100000',
  REQUEST_LIMIT_PER_USER: '100000',
  TRUST_PROXY: '1',
  SHUTDOWN_DRAIN_MS: '500',
};
const CLIENTS = 6;
const POST_ID = 21;
const DEVICE = 'rolling-restart-device';
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a rolling restart behind the example nginx', () => {
  it('answers every request and keeps every acknowledged write once', { timeout: 240_000 }, async () => {
    const opened = await openPostgresTestDatabase();
    const servers: ServerProcess[] = [];
    let proxy: Awaited<ReturnType<typeof startNginx>> | undefined;
    let loading = true;
    let clients: Promise<void>[] = [];
    try {
      for (let i = 0; i < 2; i++) servers.push(await startServerProcess({ env: { ...ENV, DATABASE_URL: opened.url } }));
      proxy = await startNginx(block('nginx'), servers.map((server) => server.port));
      const base = proxy.url;
      const ticket = await logInOver(servers[0]!, '15600047047', DEVICE);
      const headers = { 'content-type': 'application/json', ticket, 'device-id': DEVICE };
      /** A call through nginx: its status and envelope, or nginx's own page. */
      const call = async (path: string, body: unknown): Promise<{ status: number; body: { code?: number; data?: unknown }; text: string }> => {
        const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
        const text = await response.text();
        try {
          return { status: response.status, body: JSON.parse(text) as { code?: number; data?: unknown }, text };
        } catch {
          return { status: response.status, body: {}, text };
        }
      };

      const failures: string[] = [];
      const acknowledged = new Map<string, number>();
      let answered = 0;
      // Each client in turn reads the post and comments on it, as the feed and the outbox do.
      clients = Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; loading; i++) {
          const content = `滚动重启 ${client}-${i}`;
          try {
            const answer =
              i % 2 === 0
                ? await call(api.postDetail.path, { post_id: POST_ID })
                : await call(api.commentAdd.path, { post_id: POST_ID, content, client_id: `rolling-${client}-${i}` });
            if (answer.status !== 200 || answer.body.code !== 0) failures.push(`${answer.status} ${answer.text.replace(/\s+/g, ' ').slice(0, 160)}`);
            else if (i % 2 === 1) acknowledged.set(content, (answer.body.data as Comment).id);
          } catch (error) {
            failures.push(String(error));
          }
          answered++;
        }
      });
      const answeredAfter = async (more: number) => {
        const target = answered + more;
        while (answered < target && failures.length === 0) await wait(20);
      };
      await answeredAfter(100);
      for (const index of [0, 1]) {
        const { port } = servers[index]!;
        // systemctl restart: SIGTERM, the process drains and ends, a new one starts on the same port.
        await servers[index]!.stop();
        servers[index] = await startServerProcess({ env: { ...ENV, DATABASE_URL: opened.url }, port });
        await answeredAfter(100);
      }
      loading = false;
      await Promise.all(clients);
      expect(failures).toEqual([]);
      expect(answered).toBeGreaterThan(300);

      const rows = await queryRows<{ content: string; id: number; n: number }>(
        opened.database.db,
        sql`select content, min(id)::int as id, count(*)::int as n from comments where content like '滚动重启 %' group by content`,
      );
      expect(rows.filter((row) => row.n !== 1)).toEqual([]);
      expect(rows.length).toBe(acknowledged.size);
      const stored = new Map(rows.map((row) => [row.content, row.id]));
      for (const [content, id] of acknowledged) expect(stored.get(content), content).toBe(id);
    } finally {
      loading = false;
      await Promise.all(clients);
      await proxy?.stop();
      for (const server of servers) await server.stop();
      await opened.database.close();
      await opened.stop();
    }
  });
});
