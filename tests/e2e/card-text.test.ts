/**
 * A feed card shows a post's text as the reader will see it, at 375 and 1280 px: no Markdown
 * syntax (`**加粗**` reads 加粗, `$E=mc^2$` reads E=mc^2), from the server's first screen and in
 * the app alike; 展开 shows it rendered (bold in bold). Needs `npm run build` first.
 */
import { describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Post } from '#shared/schemas.ts';
import { callApi } from './support/app.ts';
import { useApp, withBrowser } from './support/fixtures.ts';
import { callAs, logInByApi } from './support/hostile.ts';

const app = useApp();

const CONTENT = `**加粗的开头**，公式 $E=mc^2$ 和 \`code\`：\n- 第一条\n- 第二条\n\n${'长文本'.repeat(40)}`;

describe.each([375, 1280])('a card at %i px', (width) => {
  it('shows the text without its Markdown syntax, and 展开 renders it', async () => {
    const author = await logInByApi(app, width === 375 ? '13900000771' : '13900000772');
    const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
    const post = await callAs<Post>(app, author, api.postAdd.path, {
      content: CONTENT,
      channel_id: [channelId],
      attach: [],
      client_id: `card-text-${width}-${Date.now()}`,
    });
    await withBrowser(app, { viewport: { width, height: 800 } }, async ({ page }) => {
      await page.goto(`${app.url}/home`);
      const card = page.locator(`main article[aria-labelledby*="${post.id}"]`).first();
      const text = card.locator('.post-content__text');
      // Until remove-markdown's code has come, a card the client renders shows its text as written
      // (a card of the server's first screen may too, for a moment, once the app is up); then
      // without the syntax.
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
