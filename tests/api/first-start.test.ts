/**
 * The first start on an empty PGlite folder (src/server/main.ts): the real server process seeds
 * the demo community and meanwhile says so in its log, step by step, answers /healthz and pages
 * (the app shell) at once, answers /readyz 503, and holds API calls until the seed is done, when
 * they are answered from the seeded community. The ready line comes after the seed's.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { FIRST_READ_ATTRIBUTE } from '../../src/shared/first-screen.ts';
import { SEED_STEPS } from '../../src/server/seed/seed.ts';
import { callOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SEEDING = '服务未就绪：正在写入演示数据';

let dir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'first-start-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>');
});
afterAll(async () => {
  await server?.stop();
  await removeServerBundle();
  await rm(dir, { recursive: true, force: true });
});

/** The messages of the process's log lines (pino JSON), in order. */
function messages(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg?: string }).msg ?? '');
}

async function readyz(base: string): Promise<{ status: number; msg: string | undefined }> {
  const response = await fetch(`${base}/readyz`);
  const body = (await response.json()) as { error?: { msg: string } };
  return { status: response.status, msg: body.error?.msg };
}

describe('the first start on an empty database', () => {
  it('serves pages and /healthz while it seeds, says how the seed goes, and holds API calls until the seed is done', async () => {
    server = await startServerProcess({
      env: { DATABASE_URL: '', DATA_DIR: join(dir, 'data'), CLIENT_DIR: dir, SEED_DEMO_DATA: 'true' },
      waitUntilReady: false,
    });
    const base = server.url;
    // Listening, then connecting and migrating, then seeding.
    const deadline = Date.now() + 90_000;
    let state: Awaited<ReturnType<typeof readyz>> | undefined;
    while (Date.now() < deadline && server.child.exitCode === null) {
      state = await readyz(base).catch(() => undefined);
      if (state?.msg === SEEDING || state?.status === 200) break;
      await wait(20);
    }
    expect(state, server.output()).toEqual({ status: 503, msg: SEEDING });

    // An API call sent now waits for the seed.
    let answeredAt: number | undefined;
    const held = callOver<{ id: number }>(base, api.postDetail.path, { post_id: 21 }).then((result) => {
      answeredAt = Date.now();
      return result;
    });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ code: 0, data: { status: 'alive', phase: 'seeding' } });
    const page = await fetch(`${base}/home`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain(FIRST_READ_ATTRIBUTE);
    const during = await readyz(base);
    const stillSeeding = Date.now();
    expect(during).toEqual({ status: 503, msg: SEEDING });
    expect(answeredAt === undefined || answeredAt > stillSeeding).toBe(true);

    const result = await held;
    expect(result.status, server.output()).toBe(200);
    expect(result.body.code).toBe(0);
    // Answered from the seeded community: the post is there.
    expect(result.body.data).toMatchObject({ id: 21 });
    expect((await readyz(base)).status).toBe(200);

    const log = messages(server.output());
    const at = (text: string) => log.findIndex((msg) => msg.includes(text));
    const began = at('seeding demo data into the empty database');
    expect(began, log.join('\n')).toBeGreaterThanOrEqual(0);
    const steps = SEED_STEPS.map((step, index) => at(`seeding demo data ${index + 1}/${SEED_STEPS.length}: ${step}`));
    expect(steps.every((index) => index > began), log.join('\n')).toBe(true);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    const seeded = at('seeded demo data in');
    const ready = at(' ready on http://');
    expect(seeded).toBeGreaterThan(steps.at(-1)!);
    expect(ready).toBeGreaterThan(seeded);
  }, 180_000);
});
