/**
 * Searching, as a user does it on a phone (375 px, touch) and on a PC (1280 px): logged in
 * through the UI, someone's new post with a unique Chinese phrase (in a new topic, by an author
 * whose nickname holds it) is found by two of its characters from the phone's entry or the
 * header's box, its card shows the match marked and takes a like; 话题 and 用户 find the topic and
 * the author; Back returns to the same results; the search is listed under the empty field and
 * 清除 forgets it; offline, a reload shows the results last seen, and a new search says it is
 * offline and keeps its words. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Post } from '#shared/schemas.ts';
import { callApi } from './support/app.ts';
import { PHONE_USER_AGENT } from './support/browser.ts';
import { useApp, withBrowser } from './support/fixtures.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { goOffline } from './support/offline.ts';
import { logIn } from './support/session.ts';

const app = useApp();

/** The query keys the IndexedDB copy of the query cache holds now. */
function persistedKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const opening = indexedDB.open('local-cache:query-cache');
        opening.onerror = () => resolve([]);
        opening.onsuccess = () => {
          try {
            const read = opening.result.transaction('entries').objectStore('entries').get(['v', 'client']);
            read.onsuccess = () => {
              const queries = (read.result?.clientState?.queries ?? []) as { queryKey: unknown }[];
              resolve(queries.map((query) => JSON.stringify(query.queryKey)));
            };
            read.onerror = () => resolve([]);
          } catch {
            resolve([]);
          }
        };
      }),
  );
}

describe.each([
  {
    name: 'a phone, 375 px',
    device: { viewport: { width: 375, height: 812 }, hasTouch: true, userAgent: PHONE_USER_AGENT },
    phone: '13900000311',
    author: '13900000411',
    phrase: '鹦鹉螺号',
  },
  {
    name: 'a PC, 1280 px',
    device: { viewport: { width: 1280, height: 800 } },
    phone: '13900000312',
    author: '13900000412',
    phrase: '琥珀川流',
  },
])('search on $name', ({ device, phone, author, phrase }) => {
  const mobile = device.viewport.width < 860;
  const q = phrase.slice(0, 2);
  const topicName = `${phrase}观察`;
  const nick = `${phrase}迷`;

  it('finds a new post by two of its characters, likes it, finds its topic and author, goes back, lists and clears the search, and reads it offline', { timeout: 240_000 }, async () => {
    // Someone else's post, in a new topic, under a nickname that holds the phrase.
    const someone = await logInByApi(app, author);
    await callAs(app, someone, api.nickUpdate.path, { nick });
    const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
    const post = await callAs<Post>(app, someone, api.postAdd.path, {
      content: `窗外飞过一只${phrase}，记下来`,
      channel_id: [channelId],
      attach: [],
      topic_tags: `#${topicName}#`,
      client_id: `search-${phone}-${Date.now()}`,
    });

    await withBrowser(app, { ...device, at: '/home' }, async ({ page }) => {
      await logIn(app, page, phone);
      const field = page.getByRole('search', { name: '搜索', exact: true }).getByRole('searchbox');

      // From the feed: the phone's entry opens the page with its field focused; the PC's header box searches on Enter.
      if (mobile) {
        await page.getByRole('link', { name: '搜索', exact: true }).tap();
        await page.waitForURL(/\/search$/);
        await page.waitForFunction(() => document.activeElement?.matches('main input[type="search"]') === true);
        await page.keyboard.type(q);
        await page.keyboard.press('Enter');
      } else {
        const box = page.getByRole('search', { name: '搜索社区' }).getByRole('searchbox', { name: '搜索' });
        await box.fill(q);
        await box.press('Enter');
      }
      await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === q);
      await page.waitForFunction(() => document.title === '搜索');

      // The card, its match marked, the count announced; a like from the results reaches the server.
      const card = page.locator('main article', { hasText: phrase });
      await card.waitFor();
      expect(await card.locator('mark').first().textContent()).toBe(q);
      await page.getByRole('status').filter({ hasText: /^找到/ }).waitFor({ state: 'attached' });
      const like = card.getByRole('button', { name: /^点赞/ });
      if (mobile) await like.tap();
      else await like.click();
      await card.getByRole('button', { name: /^取消点赞 1$/ }).waitFor();
      await expect.poll(async () => (await callApi(app, api.postDetail, { post_id: post.id })).like_count, { timeout: 30_000 }).toBe(1);

      // 话题 and 用户: the topic and the author as rows, their match marked, the kind in the address.
      await page.getByRole('tab', { name: '话题' }).click();
      await page.waitForURL(/type=topic/);
      const topicRow = page.locator('main .search-row', { hasText: `#${topicName}#` });
      await topicRow.waitFor();
      expect(await topicRow.locator('mark').first().textContent()).toBe(q);
      await page.getByRole('tab', { name: '用户' }).click();
      await page.waitForURL(/type=user/);
      const userRow = page.locator('main .search-row', { hasText: nick });
      await userRow.waitFor();
      expect(await userRow.locator('mark').first().textContent()).toBe(q);

      // Into the author's page and Back: the same results on the same tab.
      await userRow.click();
      await page.waitForURL(/\/usercenter\//);
      await page.goBack();
      await page.waitForURL(/\/search\?.*type=user/);
      await userRow.waitFor();
      expect(await page.getByRole('tab', { name: '用户' }).getAttribute('aria-selected')).toBe('true');

      // Into the post and Back: the card as it was, liked, where it was.
      await page.getByRole('tab', { name: '动态' }).click();
      await card.getByRole('button', { name: /^取消点赞 1$/ }).waitFor();
      const scrolled = await page.evaluate(() => scrollY);
      await card.getByRole('link', { name: /查看动态详情/ }).click();
      await page.waitForURL(new RegExp(`/message/detail/${post.id}`));
      await page.goBack();
      await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === q);
      await card.getByRole('button', { name: /^取消点赞 1$/ }).waitFor();
      expect(await card.locator('mark').first().textContent()).toBe(q);
      expect(Math.abs((await page.evaluate(() => scrollY)) - scrolled)).toBeLessThanOrEqual(2);
      expect(await field.inputValue()).toBe(q);

      // Under the empty field, the search just made; 清除 forgets it in one tap.
      await field.fill('');
      const recent = page.getByRole('region', { name: '最近搜索' });
      await recent.getByRole('button', { name: q, exact: true }).waitFor();
      const clear = recent.getByRole('button', { name: /清除/ });
      if (mobile) await clear.tap();
      else await clear.click();
      await recent.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => localStorage.getItem('horde:recent-searches'))).toBeNull();

      // Offline: the app started again from what the device kept shows the results last seen.
      await field.fill(q);
      await field.press('Enter');
      await card.waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await expect.poll(() => persistedKeys(page), { timeout: 30_000 }).toContain(JSON.stringify(['posts', 'list', 'search', q]));
      await goOffline(page);
      await page.reload();
      await card.waitFor();
      expect(await card.locator('mark').first().textContent()).toBe(q);
      expect(await field.inputValue()).toBe(q);

      // A new search offline: the offline state with 重试, the words still in the field.
      const fresh = `${phrase}新`;
      await field.fill(fresh);
      await field.press('Enter');
      const offline = page.getByRole('alert').filter({ hasText: '当前处于离线状态' });
      await offline.waitFor();
      await offline.getByRole('button', { name: '重试' }).waitFor();
      expect(await field.inputValue()).toBe(fresh);
      expect(new URL(page.url()).searchParams.get('q')).toBe(fresh);
    });
  });
});
