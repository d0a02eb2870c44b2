/**
 * GET /metrics (src/server/http/metrics.ts): served to the peers within METRICS_ALLOW when it is
 * set (METRICS on or off), else to anyone with METRICS=true, else to no one (a 404 envelope, as
 * any path that is no call); served, the Prometheus text format with the process's and Node's
 * own, the release's version, requests by route and status, the latency histogram, the -2005
 * refusals, the PostgreSQL pool and its queries, login codes not sent and the replayed writes,
 * labelled by route pattern, never by raw path (`promtool check metrics` where it is installed).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { ErrorCode } from '../../src/shared/errors.ts';
import { ConfigError, loadConfig, projectRoot } from '../../src/server/config.ts';
import { behaviourDatabases, codeOf, createTestApp, newClientId, phoneSource, testAppFor } from '../support/api.ts';

/** The value of one sample line of the text format (`name{labels} value`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(behaviourDatabases)('metrics on $name', ({ open }) => {
  const app = testAppFor(open);

  it('answers 404 JSON while METRICS is unset', async () => {
    const answer = await app.t.app.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect((answer.json() as { code: number }).code).toBe(-1);
  });

  it('with METRICS=true, counts requests by route and status, their latency and the -2005 refusals', async () => {
    const t = await createTestApp(app.database, { env: { METRICS: 'true', REQUEST_LIMIT_PER_ADDRESS: '2' } });
    try {
      const read = () => t.call(api.topicList, { size: 1 }, { remoteAddress: '203.0.113.61' });
      expect([codeOf(await read()), codeOf(await read()), codeOf(await read())]).toEqual([undefined, undefined, -2005]);
      await t.app.inject({ method: 'GET', url: '/serv/no-such-call/unlabelled-path' });

      const answer = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = answer.body;
      const route = api.topicList.path;
      expect(text).toContain(`http_requests_total{method="${api.topicList.method}",route="${route}",status="200"} 3`);
      expect(text).toContain(`http_request_duration_seconds_count{method="${api.topicList.method}",route="${route}"} 3`);
      expect(text).toMatch(new RegExp(`http_request_duration_seconds_bucket\\{le="0.005",method="${api.topicList.method}",route="${route.replaceAll('/', '\\/')}"\\} \\d+`));
      expect(text).toContain(`rate_limit_refusals_total{route="${route}"} 1`);
      // A path that names no call is labelled by the pattern that answered it, not by itself.
      // (A word, not a number: a number may turn up in a value, as the event loop's lag.)
      expect(text).not.toContain('unlabelled-path');
      expect(text).toContain('route="/serv/*",status="404"');

      // Only GET serves them.
      expect((await t.app.inject({ method: 'POST', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('tells the PostgreSQL pool: connections open, idle, and queries waiting for one', async () => {
    const t = await createTestApp(app.database, { env: { METRICS: 'true' } });
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    // The test database's pool holds 10 (client.ts): ten transactions held open take them all.
    const size = 10;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held: Promise<unknown>[] = [];
    try {
      const idleText = await scrape();
      expect(idleText).toContain('# TYPE db_pool_connections gauge');
      expect(sample(idleText, 'db_pool_waiting_requests')).toBe(0);
      expect(sample(idleText, 'db_pool_connections_idle')).toBe(sample(idleText, 'db_pool_connections'));

      let begun = 0;
      for (let i = 0; i < size; i++) {
        held.push(
          app.database.db.transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            begun++;
            await gate;
          }),
        );
      }
      await expect.poll(() => begun, { timeout: 5_000 }).toBe(size);
      // One more query finds no connection and waits in the pool's queue (a drizzle query runs once awaited).
      held.push(app.database.db.execute(sql`select 1`).then(() => undefined));
      // Within the pool's 5 s connection timeout, after which the waiting query would fail.
      await expect.poll(async () => sample(await scrape(), 'db_pool_waiting_requests'), { timeout: 2_000 }).toBe(1);
      const busy = await scrape();
      expect(sample(busy, 'db_pool_connections')).toBe(size);
      expect(sample(busy, 'db_pool_connections_idle')).toBe(0);
    } finally {
      release();
      await Promise.all(held);
      await t.close();
    }
  });

  it("tells the process and Node's own, the release, the pool's size, query latency and errors, and login codes not sent", async () => {
    const failing = { send: () => Promise.reject(new Error('login code webhook failed: HTTP 502')) };
    const t = await createTestApp(app.database, { env: { METRICS: 'true' }, codeSender: failing });
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    try {
      await expect(app.database.db.execute(sql`select 1 / 0`)).rejects.toThrow();
      expect(codeOf(await t.call(api.loginCode, { cellphone: phoneSource('1560052')() }))).toBe(ErrorCode.CodeNotSent);
      const text = await scrape();
      // prom-client's defaults: CPU, memory, heap, event-loop lag, open files, start time (GC once one has run).
      for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'process_open_fds', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
        expect(text, name).toContain(`# TYPE ${name} `);
      }
      expect(sample(text, 'process_start_time_seconds')).toBeLessThanOrEqual(Date.now() / 1000);
      const { version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
      expect(sample(text, `community_feed_build_info{version="${version}",node_version="${process.version}"}`)).toBe(1);
      // The test database's pool holds 10 (client.ts).
      expect(sample(text, 'db_pool_connections_max')).toBe(10);
      expect(sample(text, 'db_query_duration_seconds_count')).toBeGreaterThan(0);
      expect(sample(text, 'db_query_errors_total')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'login_codes_not_sent_total')).toBe(1);
      // Prometheus's own check of the text, where Debian's prometheus package is installed.
      const promtool = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).stdout.trim();
      if (promtool) {
        const check = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
        expect(check.stdout + check.stderr, 'promtool check metrics').toBe('');
        expect(check.status).toBe(0);
      }
    } finally {
      await t.close();
    }
  });

  it('counts each replay of an answered client_id once, by route; a new client_id is no replay', async () => {
    const t = await createTestApp(app.database, { env: { METRICS: 'true' } });
    try {
      const { ticket } = await t.login(phoneSource('1560051')());
      const replays = async () => sample((await t.app.inject({ method: 'GET', url: '/metrics' })).body, `write_replays_total{route="${api.commentAdd.path}"}`);
      const comment = { post_id: 5, content: '重放计数的评论', client_id: newClientId('replay') };
      const first = (await t.call<{ id: number }>(api.commentAdd, comment, { ticket })).data();
      expect(await replays()).toBeUndefined();
      // The outbox sends it again twice (the answer was lost): the stored answer both times.
      for (let i = 0; i < 2; i++) expect((await t.call<{ id: number }>(api.commentAdd, comment, { ticket })).data().id).toBe(first.id);
      expect(await replays()).toBe(2);
      await t.call(api.commentAdd, { ...comment, client_id: newClientId('replay') }, { ticket });
      expect(await replays()).toBe(2);

      // Five sends of a new one at once: one write, four replays (found answered, or waited for on the key).
      const again = { ...comment, client_id: newClientId('replay') };
      const answers = await Promise.all(Array.from({ length: 5 }, () => t.call<{ id: number }>(api.commentAdd, again, { ticket })));
      expect(new Set(answers.map((answer) => answer.data().id)).size).toBe(1);
      expect(await replays()).toBe(6);
    } finally {
      await t.close();
    }
  });

  it('with METRICS_ALLOW and METRICS unset, serves the allowed addresses only', async () => {
    const t = await createTestApp(app.database, { env: { METRICS_ALLOW: '10.0.0.0/8, 192.0.2.7, loopback' } });
    try {
      const scrape = (remoteAddress: string, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
      for (const allowed of ['10.20.30.40', '::ffff:10.1.2.3', '192.0.2.7', '127.0.0.1', '::1']) {
        const answer = await scrape(allowed);
        expect(answer.statusCode, allowed).toBe(200);
        expect(answer.body, allowed).toContain('# TYPE http_requests_total counter');
      }
      for (const refused of ['203.0.113.9', '192.0.2.8', '11.0.0.1', '2001:db8::1']) {
        const answer = await scrape(refused);
        expect(answer.statusCode, refused).toBe(404);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect((answer.json() as { code: number }).code).toBe(-1);
      }
      // Without TRUST_PROXY a client cannot name an allowed address of its own.
      expect((await scrape('203.0.113.9', { 'x-forwarded-for': '10.0.0.1' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('with METRICS_ALLOW and METRICS=true, still serves the allowed addresses only', async () => {
    const t = await createTestApp(app.database, { env: { METRICS: 'true', METRICS_ALLOW: '10.0.0.0/8' } });
    try {
      const scrape = (remoteAddress: string) => t.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect((await scrape('10.20.30.40')).statusCode).toBe(200);
      for (const refused of ['127.0.0.1', '::1', '203.0.113.9']) {
        const answer = await scrape(refused);
        expect(answer.statusCode, refused).toBe(404);
        expect((answer.json() as { code: number }).code, refused).toBe(-1);
      }
    } finally {
      await t.close();
    }
  });

  it('behind nginx on loopback (TRUST_PROXY=1), METRICS_ALLOW=loopback serves a local scrape, not a client nginx forwards', async () => {
    const t = await createTestApp(app.database, { env: { METRICS_ALLOW: 'loopback', TRUST_PROXY: '1' } });
    try {
      const scrape = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers });
      expect((await scrape({})).statusCode).toBe(200);
      expect((await scrape({ 'x-forwarded-for': '203.0.113.5' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('METRICS_ALLOW', () => {
  it('refuses to start on a value that is no address or range, naming it', () => {
    for (const bad of ['10.0.0.0/33', 'prometheus.internal', '10.0.0.1,,10.0.0.2', '::1/129', 'constructor']) {
      let error: unknown;
      try {
        loadConfig({ METRICS_ALLOW: bad });
      } catch (err) {
        error = err;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n'), bad).toMatch(/^METRICS_ALLOW must be comma-separated addresses and ranges/);
    }
    expect(loadConfig({ METRICS_ALLOW: ' ::1 , 172.16.0.0/12,uniquelocal ' }).metricsAllow).toEqual(['::1', '172.16.0.0/12', 'uniquelocal']);
    expect(loadConfig({}).metricsAllow).toEqual([]);
  });
});
