/**
 * Behind a proxy (TRUST_PROXY, src/server/config.ts): true/false, a hop count, or addresses and
 * ranges, as Fastify takes them; anything else stops the start naming the variable. With one hop
 * (one nginx that appends the address it saw), a client that writes its own X-Forwarded-For is
 * still counted by its real address against the limit per address.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { behaviourDatabases, codeOf, createTestApp, testAppFor, type TestApp } from '../support/api.ts';

const PROXY = '10.0.0.2';

describe('TRUST_PROXY', () => {
  it.each([
    ['', false],
    ['false', false],
    ['0', false],
    ['TRUE', true],
    ['on', true],
    ['1', 1],
    [' 2 ', 2],
    ['10.0.0.2', ['10.0.0.2']],
    ['10.0.0.0/8, 192.168.0.0/16,::1,fd00::/8', ['10.0.0.0/8', '192.168.0.0/16', '::1', 'fd00::/8']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['maybe', '11', '-1', '1.5', '10.0.0.0/33', '::1/129', '10.0.0.256', '10.0.0.1,', 'example.com', '10.0.0.0/8/8'])(
    'refuses %j, naming the variable',
    (value) => {
      let problems: string[] = [];
      try {
        loadConfig({ TRUST_PROXY: value });
      } catch (err) {
        if (err instanceof ConfigError) problems = err.problems;
      }
      expect(problems).toEqual([expect.stringMatching(/^TRUST_PROXY must be true or false, a number of proxy hops/)]);
    },
  );
});

describe.each(behaviourDatabases)('the limit per address behind a proxy on $name', ({ open }) => {
  const app = testAppFor(open);

  /** What one nginx forwards: the client's own X-Forwarded-For with the address nginx saw appended. */
  const throughProxy = (t: TestApp, client: string, claimed: string) =>
    t.call(api.topicList, { size: 1 }, { remoteAddress: PROXY, headers: { 'x-forwarded-for': `${claimed}, ${client}` } });

  const answersOf = async (t: TestApp, client: string, tries: number) => {
    const codes = [];
    for (let i = 0; i < tries; i++) codes.push(codeOf(await throughProxy(t, client, `198.51.100.${i}`)));
    return codes;
  };

  it.each([
    ['a hop count of 1', '1', '203.0.113.41', '203.0.113.51'],
    ["the proxy's range", '10.0.0.0/8', '203.0.113.42', '203.0.113.52'],
  ])('with %s, rotating X-Forwarded-For values are still one address, and each client has its own', async (_name, trust, client, neighbour) => {
    const t = await createTestApp(app.database, { env: { TRUST_PROXY: trust, REQUEST_LIMIT_PER_ADDRESS: '3' } });
    try {
      expect(await answersOf(t, client, 5)).toEqual([undefined, undefined, undefined, -2005, -2005]);
      // Another client behind the same proxy has its own count (not the proxy's one address).
      expect(await answersOf(t, neighbour, 3)).toEqual([undefined, undefined, undefined]);
    } finally {
      await t.close();
    }
  });

  it("with the proxy's range, a client reaching the server directly is counted by its own address, whatever it claims", async () => {
    const t = await createTestApp(app.database, { env: { TRUST_PROXY: '10.0.0.0/8', REQUEST_LIMIT_PER_ADDRESS: '3' } });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++) {
        const claimed = { 'x-forwarded-for': `198.51.100.${200 + i}` };
        codes.push(codeOf(await t.call(api.topicList, { size: 1 }, { remoteAddress: '203.0.113.48', headers: claimed })));
      }
      expect(codes).toEqual([undefined, undefined, undefined, -2005]);
    } finally {
      await t.close();
    }
  });

  it('with true, any X-Forwarded-For is believed: the reason to name the hops instead', async () => {
    const t = await createTestApp(app.database, { env: { TRUST_PROXY: 'true', REQUEST_LIMIT_PER_ADDRESS: '3' } });
    try {
      expect(await answersOf(t, '203.0.113.43', 5)).toEqual(Array(5).fill(undefined));
    } finally {
      await t.close();
    }
  });
});
