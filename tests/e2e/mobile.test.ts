/**
 * A phone (375 px) against the built app and the real server: every item of the PC sidebar and
 * the channel directory are reachable from the feed through 发现, and every touch target on the
 * way is at least 44 x 44 px.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api } from '#shared/api.ts';
import { callApi, feedPosts } from './support/app.ts';
import { useApp, useBrowser } from './support/fixtures.ts';
import { logIn } from './support/session.ts';

const DEMO_PHONE = '13800000000';
const MIN_TARGET_PX = 44;

/**
 * Visible controls in the viewport whose target is smaller than 44 x 44 px. The target is the
 * element's box together with an absolutely placed ::before or ::after (the invisible hit area
 * small buttons get, base.css); an input's target is its label. Links inside running text (a post's or comment's words) are
 * exempt, as WCAG 2.5.8 exempts inline targets.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const selector = 'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=tab], summary';
    const small: string[] = [];
    for (const control of document.querySelectorAll<HTMLElement>(selector)) {
      if (control.closest('.rich-text, .post-content__text, [inert]')) continue;
      // A box or radio is tapped through its label.
      const element = control.tagName === 'INPUT' ? (control.closest('label') ?? control) : control;
      const rect = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden') continue;
      const box = { top: rect.top, left: rect.left, bottom: rect.bottom, right: rect.right, width: 0, height: 0 };
      for (const pseudo of ['::before', '::after']) {
        const p = getComputedStyle(element, pseudo);
        if (p.content === 'none' || p.position !== 'absolute' || style.position === 'static') continue;
        const px = (value: string) => (value.endsWith('px') ? Number.parseFloat(value) : 0);
        box.top = Math.min(box.top, rect.top + px(p.top));
        box.left = Math.min(box.left, rect.left + px(p.left));
        box.bottom = Math.max(box.bottom, rect.bottom - px(p.bottom));
        box.right = Math.max(box.right, rect.right - px(p.right));
      }
      box.width = box.right - box.left;
      box.height = box.bottom - box.top;
      if (box.bottom < 0 || box.top > innerHeight || box.right < 0 || box.left > innerWidth) continue;
      // Clipped to 1 px: a visually hidden skip link or heading, not a target until focused.
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.width < min - 0.5 || box.height < min - 0.5) {
        const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 20);
        small.push(`${element.tagName.toLowerCase()}.${element.className} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    return small;
  }, MIN_TARGET_PX);
}

/**
 * Controls of `main` a finger at 21 px above, below, left or right of their centre misses: a
 * point inside the 44 x 44 px square centred on a control must land on that control (an
 * invisible hit area drawn under the next line does not count).
 */
async function offCentreMisses(page: Page): Promise<string[]> {
  return page.evaluate((reach) => {
    const missed: string[] = [];
    const clearTop = Math.max(60, ...[...document.querySelectorAll('.mobile-bar, .feed-tabs')].map((bar) => bar.getBoundingClientRect().bottom));
    for (const control of document.querySelectorAll<HTMLElement>('main a[href], main button, main [role=button], main [role=tab]')) {
      if (control.closest('.rich-text, .post-content__text, [inert]')) continue;
      const rect = control.getBoundingClientRect();
      const x = rect.left + rect.width / 2;
      const y = rect.top + rect.height / 2;
      // Only where the bars stuck to the top and bottom cover none of the square.
      if (rect.width === 0 || rect.height === 0 || y - reach < clearTop || y + reach > innerHeight - 60) continue;
      for (const [dx, dy] of [[0, -reach], [0, reach], [-reach, 0], [reach, 0]] as const) {
        const hit = document.elementFromPoint(Math.min(innerWidth - 1, Math.max(0, x + dx)), y + dy);
        if (!hit || !control.contains(hit)) {
          const name = (control.getAttribute('aria-label') ?? control.textContent ?? '').trim().slice(0, 12);
          const over = hit ? `${hit.tagName.toLowerCase()}${hit.className && typeof hit.className === 'string' ? `.${hit.className.split(' ')[0]}` : ''}` : 'nothing';
          missed.push(`${control.tagName.toLowerCase()} "${name}" at ${dx},${dy} (${over} there)`);
          break;
        }
      }
    }
    return missed;
  }, 21);
}

describe('on a 375 px phone', () => {
  const app = useApp();
  const { page } = useBrowser(app, { viewport: { width: 375, height: 740 } });
  let followed: { channel_id: number; channel_name: string }[];

  const feedTabs = () => page.getByRole('navigation', { name: '动态分类' });
  const sheet = () => page.getByRole('dialog', { name: '发现' });
  const openSheet = async () => {
    await feedTabs().getByRole('button', { name: '发现' }).click();
    await sheet().waitFor();
  };

  it('the feed, and its controls, are big enough for a finger', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    expect(await smallTargets(page)).toEqual([]);
    // A long card's 展开 reaches down over the space under it, never over its chips' targets.
    const folded = page.locator('main article').filter({ has: page.locator('.post-content__toggle') }).filter({ has: page.locator('.chips') });
    // The demo is seeded as of the run's time of day: such a card may come further down. A screen
    // at a time: past 40 posts the list is windowed, and a jump would leave cards out of the DOM.
    await expect
      .poll(async () => {
        if ((await folded.count()) === 0) await page.evaluate(() => window.scrollBy(0, window.innerHeight));
        return folded.count();
      })
      .toBeGreaterThan(0);
    await folded.first().evaluate((card) => card.scrollIntoView({ block: 'center' }));
    expect(await offCentreMisses(page)).toEqual([]);
  });

  it('the AI widget waits at the edge, off the text column, and comes out with a 44 px close button', async () => {
    const widget = page.getByTestId('ai-widget');
    // The scroll before may have put the widget aside for a moment, and the windowed list may be
    // swapping the cards it holds: both measured once each shows, in the same look.
    const shownText = page.locator('main .post-content__text').filter({ visible: true }).first();
    type Box = Awaited<ReturnType<typeof widget.boundingBox>>;
    let docked: Box = null;
    let text: Box = null;
    await expect.poll(async () => ((docked = await widget.boundingBox()) && (text = await shownText.boundingBox())) !== null).toBe(true);
    // What shows of the widget is right of the text column.
    expect(docked!.x).toBeGreaterThanOrEqual(text!.x + text!.width);
    expect(docked!.y + docked!.height).toBeLessThanOrEqual(740 - 110 - 200 + docked!.height);
    // A finger taps what shows of it.
    await widget.getByRole('button', { name: 'AI助手' }).click({ position: { x: 8, y: 22 } });
    // Its name is its visible text (the browser may put spaces between the lines).
    const open = widget.getByRole('button', { name: /^AI助手\s*学习路上，有问必答\s*（新窗口打开）$/ });
    await open.waitFor();
    const close = await widget.getByRole('button', { name: '关闭AI助手' }).boundingBox();
    expect(close!.width).toBeGreaterThanOrEqual(MIN_TARGET_PX);
    expect(close!.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
    expect(close!.x + close!.width).toBeLessThanOrEqual(375);
    expect(await smallTargets(page)).toEqual([]);
    // Scrolling on docks it again.
    await page.mouse.wheel(0, 300);
    await expect.poll(async () => (await widget.boundingBox())!.x).toBeGreaterThanOrEqual(text!.x + text!.width);
  });

  it('reaches an explore item through 发现, and the sheet closes on arrival', async () => {
    await openSheet();
    const nav = sheet().getByRole('navigation', { name: '社区导航' });
    expect(await nav.getByRole('link', { name: '全部' }).getAttribute('aria-current')).toBe('page');
    await nav.getByRole('link', { name: '社区公约' }).waitFor();
    expect(await smallTargets(page)).toEqual([]);
    // An external explore item opens a new window.
    expect(await nav.getByRole('link', { name: /每日一课/ }).getAttribute('target')).toBe('_blank');
    await nav.getByRole('link', { name: '话题广场' }).click();
    await page.waitForURL('**/topic/list');
    await expect.poll(() => sheet().count()).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: '话题列表' }).count()).toBeGreaterThan(0);
  });

  it('reaches a followed channel through 发现 once logged in', async () => {
    await page.goto(`${app.url}/home`);
    await logIn(app, page, DEMO_PHONE);
    const response = await page.request.post(`${app.url}${api.userChannelList.path}`, {
      data: { source: 1, visit_user_id: (await (await page.request.get(`${app.url}/serv/v1/user/auth?t=1`)).json()).data.uid },
    });
    followed = ((await response.json()) as { data: { list: typeof followed } }).data.list;
    expect(followed.length).toBeGreaterThan(1);
    const channel = followed[1]!;
    await openSheet();
    const nav = sheet().getByRole('navigation', { name: '社区导航' });
    // 关注 shows its channels at once on a phone.
    expect(await nav.getByRole('link', { name: '关注' }).getAttribute('aria-expanded')).toBe('true');
    const link = nav.getByRole('link', { name: channel.channel_name, exact: true });
    const box = await link.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
    expect(await smallTargets(page)).toEqual([]);
    await link.click();
    await page.waitForURL(`**/follow?channelId=${channel.channel_id}`);
    await expect.poll(() => page.getByRole('heading', { name: channel.channel_name }).count()).toBe(1);
    await expect.poll(() => page.locator('main article').count()).toBeGreaterThan(0);
    expect(await smallTargets(page)).toEqual([]);
  });

  it('reaches the channel directory from the feed', async () => {
    await openSheet();
    await sheet().getByRole('link', { name: '全部频道' }).click();
    await page.waitForURL('**/invite/channelList');
    await expect.poll(() => page.locator('main .channel-tile').count()).toBeGreaterThan(0);
    expect(await smallTargets(page)).toEqual([]);
  });

  it('a channel, a user centre and a topic answer a finger across a 44 px square centred on each control', async () => {
    const post = (await feedPosts(app, 1))[0]!;
    const topic = (await callApi(app, api.topicList, { size: 1 })).list[0]!;
    for (const [path, ready] of [
      [`/channel/list/${post.channels[0]!.channel_id}`, () => page.getByRole('button', { name: /关注/ }).first()],
      [`/usercenter/${post.user.uid}`, () => page.getByRole('tab', { name: '动态' })],
      [`/topic/comment/${topic.topic_id}`, () => page.locator('main article').first()],
    ] as const) {
      await page.goto(`${app.url}${path}`);
      await ready().waitFor();
      expect(await offCentreMisses(page), path).toEqual([]);
    }
  });

  it('a post detail and a user centre keep their targets big enough too', async () => {
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await page.locator('main article .post-card__time').first().evaluate((el: HTMLElement) => el.click());
    await page.waitForURL('**/message/detail/**');
    await expect.poll(() => page.getByRole('heading', { name: /评论/ }).count()).toBe(1);
    expect(await smallTargets(page)).toEqual([]);
    await page.locator('main a[href^="/usercenter/"]').first().click();
    await page.waitForURL('**/usercenter/**');
    await page.getByRole('tab', { name: '动态' }).waitFor();
    expect(await smallTargets(page)).toEqual([]);
  });
});
