/**
 * Moderation, as the people in it do it, each logged in through the UI: a reader on a PC reports
 * someone's post as 垃圾广告; the demo moderator, on a phone, opens 内容审核 from the account menu,
 * finds the report in 待处理, hides the post with a reason from the bottom picker (confirmed), and
 * reads the hide in 处理记录; a visitor's /home no longer has the post; its author, logged in on
 * that browser, reads it with 该内容已被隐藏 and the reason, and a 社区通知 in 消息 saying so. Needs
 * `npm run build` first.
 */
import { describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Post } from '#shared/schemas.ts';
import { DEMO_MODERATOR_CELLPHONE } from '../../src/server/seed/seed.ts';
import { callApi } from './support/app.ts';
import { PHONE_USER_AGENT } from './support/browser.ts';
import { useApp, withBrowser } from './support/fixtures.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { logIn } from './support/session.ts';

// The author logs in through the API to post, then again through the UI within the minute.
const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });
const AUTHOR_PHONE = '13900000521';
const READER_PHONE = '13900000522';
const PC = { width: 1280, height: 800 };

describe('moderation', () => {
  it('takes a reported post from everyone but its author once the moderator hides it, and tells the author why', { timeout: 300_000 }, async () => {
    const author = await logInByApi(app, AUTHOR_PHONE);
    const text = `加微信领免费课程，名额有限 ${Date.now()}`;
    const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
    const post = await callAs<Post>(app, author, api.postAdd.path, { content: text, channel_id: [channelId], attach: [], client_id: `moderation-${Date.now()}` });

    // A reader reports it from its page.
    await withBrowser(app, { viewport: PC, at: `/message/detail/${post.id}` }, async ({ page }) => {
      await logIn(app, page, READER_PHONE);
      await page.locator('main article').first().getByRole('button', { name: '更多' }).click();
      await page.getByRole('button', { name: '投诉' }).click();
      await page.waitForURL(/\/complain\?/);
      await page.getByRole('radio', { name: '垃圾广告' }).check();
      await page.getByRole('textbox', { name: '补充说明（选填）' }).fill('一直在发广告');
      await page.getByRole('button', { name: '提交' }).click();
      await page.waitForURL(new RegExp(`/message/detail/${post.id}$`));
    });

    // The demo moderator, on a phone: 内容审核 from the account menu, the report in 待处理, hidden with a reason.
    await withBrowser(app, { viewport: { width: 375, height: 812 }, hasTouch: true, userAgent: PHONE_USER_AGENT, at: '/home' }, async ({ page }) => {
      await logIn(app, page, DEMO_MODERATOR_CELLPHONE);
      await page.getByRole('button', { name: /^账号菜单/ }).tap();
      await page.getByRole('dialog').getByRole('button', { name: '内容审核' }).tap();
      await page.waitForURL(/\/moderation$/);
      const item = page.getByRole('article', { name: '被举报的动态' }).filter({ hasText: text });
      await item.waitFor();
      expect(await item.getByRole('list', { name: '举报理由' }).textContent()).toBe('垃圾广告 × 1');
      expect(await item.getByRole('list', { name: '举报说明' }).textContent()).toContain('一直在发广告');
      await item.getByLabel('处理理由').fill('广告引流');
      await item.getByRole('button', { name: '处理' }).tap();
      await page.getByRole('dialog', { name: '处理举报' }).getByRole('button', { name: '隐藏动态' }).tap();
      await page.getByRole('alertdialog', { name: '隐藏动态' }).getByRole('button', { name: '确定' }).tap();
      await page.getByText('已隐藏动态').waitFor();
      // Its complaints closed, it leaves the queue; the log has the hide and its reason.
      await item.waitFor({ state: 'detached' });
      await page.getByRole('tab', { name: '处理记录' }).tap();
      await page.locator('.moderation-log__row', { hasText: '广告引流' }).filter({ hasText: '隐藏了' }).waitFor();
    });

    // Gone from a visitor's /home (it was the newest post); its author reads it, and why.
    await withBrowser(app, { viewport: PC, at: '/home' }, async ({ page }) => {
      await page.locator('main article').first().waitFor();
      expect(await page.locator('main article', { hasText: text }).count()).toBe(0);
      await logIn(app, page, AUTHOR_PHONE);
      await page.goto(`${app.url}/message/detail/${post.id}`);
      const card = page.locator('main article').first();
      await card.getByRole('note').filter({ hasText: '该内容已被隐藏：广告引流' }).waitFor();
      expect(await card.textContent()).toContain(text);
      // And 消息 told them, naming no moderator.
      await page.locator('.app-header__actions').getByRole('link', { name: /^消息/ }).click();
      await page.waitForURL(/\/notice$/);
      await page.locator('main .notice', { hasText: '社区通知' }).filter({ hasText: '你的动态已被隐藏，理由：广告引流' }).waitFor();
    });
  });
});
