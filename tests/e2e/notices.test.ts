/**
 * Notices, as two people live them, at 375 (a phone) and 1280 px: B comments on A's post and
 * likes it, each logged in through the UI in a browser of their own. A sees 消息's count after
 * one refresh, opens /notice, taps the comment's notice and lands on the comment; A's second
 * tab shows the count gone; offline, /notice opens again with the list. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Post } from '#shared/schemas.ts';
import { callApi } from './support/app.ts';
import { PHONE_USER_AGENT } from './support/browser.ts';
import { useApp, withBrowser } from './support/fixtures.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { logIn } from './support/session.ts';

const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });

const noticeEntry = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^消息/ });
const postCard = (page: Page) => page.locator('article.post-card--full');

/** The query keys of the copy of the cache this device keeps (IndexedDB). */
function storedQueryKeys(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open('local-cache:query-cache');
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    const [client] = await new Promise<{ clientState?: { queries: { queryKey: unknown }[] } }[]>((resolve) => {
      const reading = db.transaction('entries').objectStore('entries').getAll(['v', 'client']);
      reading.onsuccess = () => resolve(reading.result as { clientState?: { queries: { queryKey: unknown }[] } }[]);
      reading.onerror = () => resolve([]);
    });
    db.close();
    return (client?.clientState?.queries ?? []).map((query) => JSON.stringify(query.queryKey));
  });
}

describe.each([
  ['a phone (375 px)', { viewport: { width: 375, height: 740 }, userAgent: PHONE_USER_AGENT, hasTouch: true }, true],
  ['a PC (1280 px)', { viewport: { width: 1280, height: 900 } }, false],
] as const)('on %s', (_name, device, mobile) => {
  it("B's comment and like reach A: the count, 消息, the comment, read in every tab, and offline", async () => {
    const suffix = mobile ? '1' : '2';
    const [phoneA, phoneB] = [`1370000010${suffix}`, `1370000020${suffix}`];
    // A's post, written beforehand: the flow under test starts with B.
    const author = await logInByApi(app, phoneA);
    const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
    const post = await callAs<Post>(app, author, api.postAdd.path, {
      content: `一个关于缓存一致性的问题 ${suffix}`,
      channel_id: [channelId],
      attach: [],
      client_id: `notices-e2e-${suffix}-${Date.now()}`,
    });
    const reply = `我来回答：先更新数据库再删缓存 ${suffix}`;

    await withBrowser(app, { ...device, at: '/home' }, async ({ page: a, context: contextA }) => {
      await logIn(app, a, phoneA);
      await expect.poll(() => noticeEntry(a).getAttribute('aria-label')).toBe('消息');
      // A's second tab, open all along.
      const secondTab = await contextA.newPage();
      await secondTab.goto(`${app.url}/home`);
      await noticeEntry(secondTab).waitFor();

      await withBrowser(app, { ...device, at: '/home' }, async ({ page: b }) => {
        await logIn(app, b, phoneB);
        await b.goto(`${app.url}/message/detail/${post.id}`);
        await postCard(b).waitFor();
        await postCard(b).getByRole('button', { name: /^点赞 / }).click();
        await postCard(b).getByRole('button', { name: /^取消点赞 1/ }).waitFor();
        if (mobile) await b.locator('.comments').getByRole('link', { name: '写评论…' }).click();
        await b.getByRole('textbox', { name: '写评论' }).fill(reply);
        await b.getByRole('button', { name: '发送', exact: true }).click();
        await expect.poll(async () => (await callApi(app, api.commentList, { post_id: post.id })).list.map((c) => c.content)).toEqual([reply]);
      });

      // One refresh and A sees both.
      await a.reload();
      await expect.poll(() => noticeEntry(a).getAttribute('aria-label'), { timeout: 60_000 }).toBe('消息，2 条未读');
      await noticeEntry(a).click();
      await a.waitForURL(/\/notice$/);
      const list = a.getByRole('tabpanel');
      const commentNotice = list.getByRole('link', { name: new RegExp(`评论了你的动态.*${reply}`) });
      await commentNotice.waitFor();
      await list.getByRole('link', { name: /赞了你的动态/ }).waitFor();
      if (!mobile) {
        // In the card, 全部's word starts where the notices' avatars do, not at the card's edge.
        const tabText = await a.getByRole('tab', { name: '全部' }).evaluate((tab) => {
          const range = document.createRange();
          range.selectNodeContents(tab);
          return range.getBoundingClientRect().left;
        });
        const avatars = (await list.locator('.notice__avatars').first().boundingBox())!;
        expect(Math.abs(tabText - avatars.x)).toBeLessThanOrEqual(1);
      }
      // Read once seen: the count goes at once here, and in the other tab as soon as the server agrees.
      await expect.poll(() => noticeEntry(secondTab).getAttribute('aria-label')).toBe('消息');
      if (!mobile) await expect.poll(() => noticeEntry(a).getAttribute('aria-label')).toBe('消息');

      await commentNotice.click();
      await a.waitForURL(new RegExp(`/message/detail/${post.id}\\?comment=\\d+$`));
      const landed = a.locator('.comment--focused');
      await landed.waitFor();
      expect(await landed.textContent()).toContain(reply);
      await expect.poll(() => landed.evaluate((element) => element === document.activeElement)).toBe(true);
      const box = await landed.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= a.viewportSize()!.height).toBe(true);

      // Offline, the list read before opens again. (Each tab keeps its own copy of the cache on the
      // device, the last to save wins: the second tab goes first, and A's list is read once more.)
      await secondTab.close();
      await a.goto(`${app.url}/notice`);
      await list.getByRole('link', { name: new RegExp(`评论了你的动态.*${reply}`) }).waitFor();
      await a.evaluate(() => navigator.serviceWorker.ready);
      await expect.poll(() => storedQueryKeys(a)).toContain(JSON.stringify(['session', 'notices', post.user.uid, 'list', 'all']));
      await contextA.setOffline(true);
      try {
        await a.goto(`${app.url}/notice`, { waitUntil: 'commit' });
        await a.getByRole('tabpanel').getByRole('link', { name: new RegExp(`评论了你的动态.*${reply}`) }).waitFor();
      } finally {
        await contextA.setOffline(false);
      }
    });
  });
});
