/**
 * What happens elsewhere reaches an open app as it happens (the live stream, GET /serv/v1/live),
 * for a reader logged in through the UI on a PC with two tabs of the app open: one stream for
 * the browser, not one per tab; another user's new post offers 有 1 条新动态 in both tabs, and
 * their follow shows in 消息's unread count, each without a reload and well within the app's
 * minute between its own checks; the tab holding the stream, hidden a minute, lets it go to the
 * one on screen, and catches up when shown again; a login of the same account on another PC
 * shows 下线通知 at once in both tabs. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import type { LoginUser } from '#shared/schemas.ts';
import { LIVE_HIDDEN_CLOSE_MS } from '../../src/client/lib/live-stream.ts';
import { callApi } from './support/app.ts';
import { useApp, withBrowser } from './support/fixtures.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { logIn } from './support/session.ts';

const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });
const READER_PHONE = '13900000731';
const WRITER_PHONE = '13900000732';
const PC = { width: 1280, height: 800 };
/** Shorter than the app's own checks (a minute apart): what arrives within it came by the stream. */
const LIVE_WAIT_MS = 20_000;

/** The tab hidden or shown, as switching to another tab does. */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hide) => {
    if (hide) Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    else delete (document as { visibilityState?: unknown }).visibilityState;
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

describe('live', () => {
  it('tells two tabs over one stream of a new post, a new follower and a login elsewhere', { timeout: 300_000 }, async () => {
    const writer = await logInByApi(app, WRITER_PHONE);
    const reader = await (await fetch(`${app.url}${api.auth.path}`, { headers: { cookie: await logInByApi(app, READER_PHONE) } })).json();
    const readerUid = (reader as { data: LoginUser }).data.uid;

    const isStream = (url: string) => new URL(url).pathname === OTHER_PATHS.live;
    await withBrowser(app, { viewport: PC, at: '/home' }, async ({ page, context }) => {
      const opened = page.waitForRequest((request) => isStream(request.url()));
      await logIn(app, page, READER_PHONE);
      // The live part starts with the reader's first scroll.
      await page.mouse.wheel(0, 200);
      await opened;
      const second = await context.newPage();
      const secondStreams: string[] = [];
      second.on('request', (request) => {
        if (isStream(request.url())) secondStreams.push(request.url());
      });
      await second.goto(`${app.url}/home`);
      await second.locator('main article').first().waitFor();
      // The second tab's live part starts with its first scroll (html[data-live] once it listens);
      // the first tab keeps the stream.
      await second.mouse.wheel(0, 200);
      await second.locator('html[data-live]').waitFor({ state: 'attached' });

      const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
      await callAs(app, writer, api.postAdd.path, { content: `刚刚发生的事 ${Date.now()}`, channel_id: [channelId], attach: [], client_id: `live-${Date.now()}` });
      for (const tab of [page, second]) await tab.getByRole('button', { name: '有 1 条新动态' }).waitFor({ timeout: LIVE_WAIT_MS });

      await callAs(app, writer, api.followUser.path, { user_id: readerUid, client_id: `live-follow-${Date.now()}` });
      for (const tab of [page, second]) await tab.getByRole('link', { name: /^消息，\d+ 条未读$/ }).waitFor({ timeout: LIVE_WAIT_MS });
      // The second tab heard all of it from the first one's stream.
      expect(secondStreams).toEqual([]);

      // The first tab hidden a minute lets the stream go; the second, on screen, takes it and
      // hears the next post itself; the first, shown again, catches up with what it missed.
      await page.clock.install();
      await setHidden(page, true);
      const handedOver = second.waitForRequest((request) => isStream(request.url()));
      await page.clock.fastForward(LIVE_HIDDEN_CLOSE_MS + 1_000);
      await handedOver;
      await callAs(app, writer, api.postAdd.path, { content: `换了标签页之后 ${Date.now()}`, channel_id: [channelId], attach: [], client_id: `live-2-${Date.now()}` });
      await second.getByRole('button', { name: '有 2 条新动态' }).waitFor({ timeout: LIVE_WAIT_MS });
      await setHidden(page, false);
      await page.getByRole('button', { name: '有 2 条新动态' }).waitFor({ timeout: LIVE_WAIT_MS });

      // The tab holding the stream meets the ended ticket first; the other is told, whatever the
      // server answers it by then.
      await logInByApi(app, READER_PHONE);
      for (const tab of [page, second]) await tab.getByRole('alertdialog', { name: '下线通知' }).waitFor({ timeout: LIVE_WAIT_MS });
    });
  });
});
