/**
 * GET /metrics (src/server/http/metrics.ts): off unless METRICS=true (a 404 envelope, as any
 * path that is no call); on, the Prometheus text format with requests by route and status,
 * the latency histogram and the -2005 refusals, labelled by route pattern, never by raw path.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { behaviourDatabases, codeOf, createTestApp, testAppFor } from '../support/api.ts';

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
      await t.app.inject({ method: 'GET', url: '/serv/no-such-call/12345' });

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
      expect(text).not.toContain('12345');
      expect(text).toContain('route="/serv/*",status="404"');

      // Only GET serves them.
      expect((await t.app.inject({ method: 'POST', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
