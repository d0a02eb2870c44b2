/**
 * Tracking end to end: a phone visitor's events reach the real collector, which stores them; the
 * test reads them back from the server's database once it has stopped. A click on an explore item,
 * a user-centre visit and a click there; an event made offline is kept and sent when the network is
 * back; one made as the page goes leaves by beacon.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'playwright-core';
import { api } from '../../src/shared/api.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { trackingEvents } from '../../src/server/db/schema.ts';
import { migrationsFolder } from '../support/db.ts';
import { answeredRequests, startApp, type RunningApp } from './support/app.ts';
import { useBrowser } from './support/fixtures.ts';

describe('tracking', () => {
  let dataDir: string;
  let app: RunningApp;
  let userPath: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tracking-e2e-data-'));
    app = await startApp({ env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await app?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  const { page } = useBrowser(() => app, { viewport: { width: 375, height: 740 } });

  const collected = () => page.waitForResponse((response: Response) => response.url().endsWith(api.collect.path));
  /** What the collector has answered this page: how many answers, and how many events they accepted. */
  const collector = { answers: 0, accepted: 0 };
  function countCollectorAnswers(): void {
    page.on('response', (response) => {
      if (!response.url().endsWith(api.collect.path)) return;
      collector.answers++;
      void response.json().then((body: { data?: { accepted?: number } }) => (collector.accepted += body.data?.accepted ?? 0), () => undefined);
    });
  }

  it('sends a click on an explore item and a user-centre visit to the collector', async () => {
    countCollectorAnswers();
    await page.goto(`${app.url}/home?utm_identify=u-77&share_code=s-88`);
    await page.locator('main article').first().waitFor();
    await page.getByRole('navigation', { name: '动态分类' }).getByRole('button', { name: '发现' }).click();
    await page.getByRole('dialog', { name: '发现' }).getByRole('link', { name: '话题广场' }).click();
    await page.waitForURL('**/topic/list?**');
    await page.goBack();
    await page.locator('main article .post-card__author').first().click();
    await page.waitForURL('**/usercenter/**');
    userPath = new URL(page.url()).pathname;
    // One batch, or two when the batch's timer ends between them (a busy machine).
    await expect.poll(() => collector.accepted).toBe(2);
  });

  it('keeps a click made offline and sends it once the network is back', async () => {
    await page.context().setOffline(true);
    await page.getByRole('tab', { name: '频道' }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('horde:tracking-outbox'))).toContain('personal_home_click_button');
    const sent = collected();
    await page.context().setOffline(false);
    expect(await (await sent).json()).toEqual({ code: 0, data: { accepted: 1 } });
    expect(await page.evaluate(() => localStorage.getItem('horde:tracking-outbox'))).toBeNull();
  });

  it('sends what waits by beacon as the page goes', async () => {
    // Fastify logs an answer once it has gone, so the browser can hold one its log does not show yet.
    await expect.poll(() => answeredRequests(app, api.collect.path)).toBe(collector.answers);
    const before = collector.answers;
    await page.getByRole('tab', { name: '笔记' }).click();
    // Leaving at once: the beacon carries the click (or, on a machine slow enough for the batch's
    // timer to fire first, that batch's keepalive send does).
    await page.goto('about:blank');
    await expect.poll(() => answeredRequests(app, api.collect.path)).toBe(before + 1);
  });

  it('stores every event with the user properties, the app id and the log store, and reads them back', async () => {
    await app.stop();
    const database = await openDatabase({ dataDir, migrationsFolder });
    try {
      const rows = await database.db.select().from(trackingEvents).orderBy(asc(trackingEvents.id));
      const events = rows.map((row) => [row.event, row.properties]);
      const user = {
        utm_identify: 'u-77',
        share_code: 's-88',
        is_login: false,
        uid: 0,
        report_source: 'H5',
        horde_product: '极客时间社区',
        app_id: 'community-feed',
        log_store: 'community-feed-test',
      };
      expect(events).toEqual([
        ['click_resource_position', { ...user, position_type: 'explore', position_name: '话题广场', position_num: 4, page_title: '极客时间' }],
        ['personal_home_page_view', { ...user, page_name: '个人主页' }],
        ['personal_home_click_button', { ...user, button_name: '频道' }],
        ['personal_home_click_button', { ...user, button_name: '笔记' }],
      ]);
      expect(rows.every((row) => row.uid === null)).toBe(true);
      expect(userPath).toMatch(/^\/usercenter\//);
    } finally {
      await database.close();
    }
  });
});
