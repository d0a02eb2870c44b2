/**
 * A feed card shows a post's text as the reader will see it, at 375 and 1280 px: no Markdown
 * syntax (`**加粗**` reads 加粗, `$E=mc^2$` reads E=mc^2), from the server's first screen and in
 * the app alike; 展开 shows it rendered (bold in bold). The server's first screen never gives way
 * to the text as written, however late that code comes; a poll's card in a list the app renders
 * has its poll from its first paint. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Post } from '#shared/schemas.ts';
import { callApi } from './support/app.ts';
import { PHONE_USER_AGENT } from './support/browser.ts';
import { useApp, withBrowser } from './support/fixtures.ts';
import { callAs, logInByApi } from './support/hostile.ts';

const app = useApp();

/** A new post (the newest of the feed) in the channel of the feed's newest post: CONTENT unless said. */
async function postToCome(author: string, key: string, fields: { content?: string; vote?: unknown } = {}): Promise<Post> {
  const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
  return callAs<Post>(app, author, api.postAdd.path, {
    content: CONTENT,
    channel_id: [channelId],
    attach: [],
    client_id: `card-text-${key}-${Date.now()}`,
    ...fields,
  });
}

/**
 * A chunk that comes late: once the page has asked for it and the app has gone as far as it can
 * without it (two frames later). `asked` resolves when the page asks for it.
 */
async function slowChunk(page: Page, url: RegExp): Promise<{ asked: Promise<void> }> {
  let asked!: () => void;
  const askedFor = new Promise<void>((resolve) => (asked = resolve));
  await page.route(url, async (route) => {
    asked();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))).catch(() => undefined);
    await route.continue();
  });
  return { asked: askedFor };
}

const CONTENT = `**加粗的开头**，公式 $E=mc^2$ 和 \`code\`：\n- 第一条\n- 第二条\n\n${'长文本'.repeat(40)}`;

describe.each([375, 1280])('a card at %i px', (width) => {
  it('shows the text without its Markdown syntax, and 展开 renders it', async () => {
    const author = await logInByApi(app, width === 375 ? '13900000771' : '13900000772');
    const post = await postToCome(author, String(width));
    await withBrowser(app, { viewport: { width, height: 800 } }, async ({ page }) => {
      await page.goto(`${app.url}/home`);
      const card = page.locator(`main article[aria-labelledby*="${post.id}"]`).first();
      const text = card.locator('.post-content__text');
      // A card the app renders after its start shows its text as written until remove-markdown's
      // code has come, then without the syntax.
      await page.waitForLoadState('networkidle');
      await expect.poll(() => text.textContent()).toContain('加粗的开头，公式 E=mc^2 和 code：');
      const shown = (await text.textContent())!;
      expect(shown).toContain('• 第一条');
      expect(shown).not.toMatch(/\*\*|\$|`/);
      await card.getByRole('button', { name: '展开' }).click();
      await card.locator('.post-content__text strong', { hasText: '加粗的开头' }).waitFor();
    });
  });
});

/** Where the app hydrates the server's first screen (a phone, a PC), and where it renders its own in its place (a narrow window of a PC's browser, which the server took for a PC). */
const FIRST_SCREENS = [
  { name: 'hydrated on a phone', phone: '13900000773', viewport: { width: 375, height: 800 }, userAgent: PHONE_USER_AGENT },
  { name: 'hydrated on a PC', phone: '13900000774', viewport: { width: 1280, height: 800 } },
  { name: 'replaced in a narrow window', phone: '13900000775', viewport: { width: 375, height: 800 } },
];

describe.each(FIRST_SCREENS)('a card of the server’s first screen, $name,', ({ name, phone, ...launch }) => {
  it('never shows its text as written, even when remove-markdown’s code is slow to come', async () => {
    const post = await postToCome(await logInByApi(app, phone), name);
    await withBrowser(app, launch, async ({ page }) => {
      // Every text the card's text element holds, from the server's HTML on.
      await page.addInitScript((postId) => {
        const seen: string[] = [];
        (window as unknown as { cardTexts: string[] }).cardTexts = seen;
        new MutationObserver(() => {
          const text = document.querySelector(`main article[aria-labelledby*="${postId}"] .post-content__text`)?.textContent;
          if (text && seen[seen.length - 1] !== text) seen.push(text);
        }).observe(document, { subtree: true, childList: true, characterData: true });
      }, post.id);
      const chunk = await slowChunk(page, /\/assets\/remove-markdown-[^/]*\.js$/);
      await page.goto(`${app.url}/home`);
      await chunk.asked;
      const text = page.locator(`main article[aria-labelledby*="${post.id}"] .post-content__text`);
      await page.waitForLoadState('networkidle');
      await expect.poll(() => text.textContent()).toContain('加粗的开头，公式 E=mc^2 和 code：');
      const seen = await page.evaluate(() => (window as unknown as { cardTexts: string[] }).cardTexts);
      expect(seen.length).toBeGreaterThan(0);
      for (const shown of seen) expect(shown).not.toMatch(/\*\*|\$|`/);
    });
  });
});

describe('a poll’s card in a list the app renders itself', () => {
  it('has its poll from its first paint, even when the poll’s code is slow to come', async () => {
    const post = await postToCome(await logInByApi(app, '13900000776'), 'poll', {
      content: '周末去哪儿学习？',
      vote: { title: '周末学习地点', options: ['图书馆', '咖啡馆'] },
    });
    const channelId = post.channels[0]!.channel_id;
    await withBrowser(app, { viewport: { width: 375, height: 800 }, userAgent: PHONE_USER_AGENT }, async ({ page }) => {
      // Whether the card had its poll, each time that changed, from the page's start on.
      await page.addInitScript((postId) => {
        const seen: string[] = [];
        (window as unknown as { pollCard: string[] }).pollCard = seen;
        new MutationObserver(() => {
          const card = document.querySelector(`main article[aria-labelledby*="${postId}"]`);
          const state = card ? (card.querySelector('.vote') ? 'with its poll' : 'without its poll') : undefined;
          if (state && seen[seen.length - 1] !== state) seen.push(state);
        }).observe(document, { subtree: true, childList: true });
      }, post.id);
      const chunk = await slowChunk(page, /\/assets\/PostVote-[^/]*\.js$/);
      // A channel's list: no first screen of the server's, the app fetches and renders it.
      await page.goto(`${app.url}/channel/list/${channelId}`);
      await chunk.asked;
      await page.locator(`main article[aria-labelledby*="${post.id}"] .vote`).waitFor();
      expect(await page.evaluate(() => (window as unknown as { pollCard: string[] }).pollCard)).toEqual(['with its poll']);
    });
  });
});
