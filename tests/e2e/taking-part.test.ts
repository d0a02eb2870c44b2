/**
 * Taking part, in Chromium at 1280 px and 375 px against the real app: like a post in the
 * feed, see it liked on its detail, go back to the same place and unlike; vote; comment,
 * reply and delete the reply; complain with 501 characters; follow a user; delete one's own
 * post and see it leave /home; open a comment's 共 N 条回复, page through them, answer the last and
 * see the answer at once and after a reload. Each layout is a user of its own. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Comment, Post } from '#shared/schemas.ts';
import { callApi, feedPosts } from './support/app.ts';
import { PHONE_USER_AGENT } from './support/browser.ts';
import { useApp, useBrowser, withBrowser } from './support/fixtures.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { wheelAndSettle } from './support/scroll.ts';

const DEMO_PHONE = '13800000000';
const layouts = [
  { name: 'PC', viewport: { width: 1280, height: 860 }, phone: '13900000101', ownPostIndex: 0 },
  { name: 'mobile', viewport: { width: 375, height: 740 }, phone: '13900000102', ownPostIndex: 1 },
];

// The demo user logs in once per layout, within a minute.
const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });
let openPoll: Post;
let ownPosts: Post[];
let mostCommented: Post;

beforeAll(async () => {
  const posts = await feedPosts(app, 200);
  openPoll = posts.find((post) => post.vote && (post.vote.end_time === null || post.vote.end_time > Date.now() + 3_600_000))!;
  mostCommented = posts.reduce((most, post) => (post.comment_count > most.comment_count ? post : most));
  ownPosts = (await callApi(app, api.userPosts, { visit_user_id: 1, size: 5 })).list;
});
const count = (name: string | null) => Number(/(\d+)$/.exec(name ?? '')?.[1]);
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/**
 * Scrolls /home (loading pages) until the card of post `id` is there, brings it to the middle and
 * opens its 更多, in one retried step: cards measured above a jumped-to card may still move it out
 * of the windowed list's range, and then it is found again.
 */
async function openMenuOnHome(page: Page, id: number): Promise<void> {
  const author = page.locator(`#post-${id}-author`);
  const more = page.locator('article', { has: author }).getByRole('button', { name: '更多' });
  await expect
    .poll(
      async () => {
        const centred =
          (await author.count()) > 0 &&
          (await author.evaluate((element) => element.scrollIntoView({ block: 'center' }), undefined, { timeout: 1000 }).then(() => true, () => false));
        if (!centred) {
          await wheelAndSettle(page, 2000);
          return false;
        }
        return more.click({ timeout: 5000 }).then(() => true, () => false);
      },
      { message: `post ${id} never came on /home` },
    )
    .toBe(true);
}

describe.each(layouts)('taking part at $name', ({ viewport, phone }) => {
  const { page } = useBrowser(app, { viewport, logInAs: phone });

  it('likes a post in the feed, sees it liked on its detail, goes back to the same place and unlikes', async () => {
    await page.goto(`${app.url}/home`);
    const card = page.locator('main article').nth(3);
    await card.scrollIntoViewIfNeeded();
    const like = card.getByRole('button', { name: /^点赞 \d+$/ });
    const before = count(await like.getAttribute('aria-label'));
    await like.click();
    const liked = card.getByRole('button', { name: `取消点赞 ${before + 1}` });
    await liked.waitFor();
    expect(await liked.getAttribute('aria-pressed')).toBe('true');
    const at = await scrollY(page);

    await card.getByRole('link', { name: /查看动态详情/ }).click();
    await page.waitForURL(/\/message\/detail\/\d+$/);
    const detailLike = page.locator('main article').first().getByRole('button', { name: `取消点赞 ${before + 1}` });
    await detailLike.waitFor();
    expect(await detailLike.getAttribute('aria-pressed')).toBe('true');

    await page.goBack();
    await page.waitForURL(/\/home$/);
    await expect.poll(() => scrollY(page)).toBe(at);
    await liked.click();
    await card.getByRole('button', { name: `点赞 ${before}` }).waitFor();
    const postId = Number((await card.getAttribute('aria-labelledby'))!.match(/\d+/)![0]);
    await expect.poll(async () => (await callApi(app, api.postDetail, { post_id: postId })).like_count).toBe(before);
  });

  it('votes on a poll and sees the results with its own choice', async () => {
    expect(openPoll, 'the demo data has an open poll').toBeTruthy();
    await page.goto(`${app.url}/message/detail/${openPoll.id}`);
    const poll = page.getByRole('group', { name: openPoll.vote!.title });
    await poll.getByRole(openPoll.vote!.multiple ? 'checkbox' : 'radio').first().check();
    await page.getByRole('button', { name: '投票', exact: true }).click();
    const results = page.getByRole('list', { name: '投票结果' });
    await results.waitFor();
    expect(await results.textContent()).toContain('（已选）');
  });

  it('comments, replies to the comment, and deletes the reply', async () => {
    const post = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!;
    const comment = `评论 ${phone} ${Date.now()}`;
    const reply = `回复 ${phone} ${Date.now()}`;
    await page.goto(`${app.url}/message/detail/${post.id}`);
    const heading = page.getByRole('heading', { name: /^评论/ });
    await heading.waitFor();
    const total = Number((await heading.textContent())!.replace(/\D/g, ''));

    const write = async (text: string, box: string) => {
      if (viewport.width < 860) {
        await page.waitForURL(/\/comment\?/);
      }
      const field = page.getByRole('textbox', { name: box });
      await field.fill(text);
      await page.getByRole('button', { name: '发送' }).click();
      await page.waitForURL(new RegExp(`/message/detail/${post.id}$`));
      await page.getByText(text).waitFor();
    };

    if (viewport.width < 860) await page.getByRole('link', { name: '写评论…' }).click();
    await write(comment, '写评论');
    await expect.poll(async () => Number((await heading.textContent())!.replace(/\D/g, ''))).toBe(total + 1);

    const item = page.locator('.comment-item', { hasText: comment });
    const author = (await item.locator('.comment__author').first().textContent())!;
    await item.getByRole('button', { name: `回复 ${author}` }).first().click();
    await write(reply, `回复 ${author}`);

    // One's own reply: its 更多 offers 删除, never 投诉.
    await page.locator('.comment--reply', { hasText: reply }).getByRole('button', { name: '更多' }).click();
    const menu = page.getByRole('dialog', { name: '选择操作' });
    await menu.getByRole('button', { name: '删除' }).waitFor();
    expect(await menu.getByRole('button', { name: '投诉' }).count()).toBe(0);
    await menu.getByRole('button', { name: '删除' }).click();
    await page.getByRole('alertdialog', { name: '删除评论' }).getByRole('button', { name: '删除' }).click();
    await expect.poll(() => page.getByText(reply).count()).toBe(0);
    expect(await page.getByText(comment).count()).toBe(1);
  });

  it("refuses a complaint of 501 characters with -2902's message, and sends a short one", async () => {
    await page.goto(`${app.url}/home`);
    const card = page.locator('main article').first();
    await card.getByRole('button', { name: '更多' }).click();
    await page.getByRole('dialog', { name: '选择操作' }).getByRole('button', { name: '投诉' }).click();
    await page.waitForURL(/\/complain\?/);
    await page.getByRole('radio', { name: '垃圾广告' }).check();
    const text = page.getByRole('textbox', { name: '补充说明（选填）' });
    await text.fill('很'.repeat(501));
    await page.getByRole('button', { name: '提交' }).click();
    await page.locator('.complain-form__error', { hasText: '反馈内容请不要超过 500 字' }).waitFor();
    expect(page.url()).toContain('/complain');

    await text.fill('这是一条广告');
    await page.getByRole('button', { name: '提交' }).click();
    await page.waitForURL(/\/home$/);
    await page.getByText('投诉已提交').waitFor();
  });

  it('reports another user’s comment from its 更多', async () => {
    const posts = (await callApi(app, api.channelPosts, { tab: 'all', size: 50 })).list.filter((post) => post.comment_count > 0);
    let target: { postId: number; nick: string } | undefined;
    for (const post of posts) {
      const comment = (await callApi(app, api.commentList, { post_id: post.id, size: 20 })).list.find((c) => !c.is_deleted && c.content.trim());
      if (comment) {
        target = { postId: post.id, nick: comment.user.nick };
        break;
      }
    }
    await page.goto(`${app.url}/message/detail/${target!.postId}`);
    const item = page.locator('.comment-list > .comment-item').first();
    await item.getByRole('button', { name: '更多' }).first().click();
    const menu = page.getByRole('dialog', { name: '选择操作' });
    // Not one's own, not on one's own post: 投诉 and no 删除.
    await menu.getByRole('button', { name: '投诉' }).waitFor();
    expect(await menu.getByRole('button', { name: '删除' }).count()).toBe(0);
    await menu.getByRole('button', { name: '投诉' }).click();
    await page.waitForURL(/\/complain\?type=comment&id=\d+/);
    await page.getByText('你正在投诉一条评论').waitFor();
    await page.getByRole('radio', { name: '人身攻击' }).check();
    await page.getByRole('button', { name: '提交' }).click();
    await page.getByText('投诉已提交').waitFor();
  });

  it('follows a user and sees the follower count change', async () => {
    const author = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.user;
    await page.goto(`${app.url}/usercenter/${author.uid}`);
    const followers = page.locator('.profile__stat', { hasText: '粉丝' }).locator('dd');
    await followers.waitFor();
    const before = Number(await followers.textContent());
    await page.getByRole('button', { name: '关注', exact: true }).click();
    await page.getByRole('button', { name: '已关注' }).waitFor();
    await expect.poll(async () => Number(await followers.textContent())).toBe(before + 1);
    await page.getByRole('button', { name: '已关注' }).click();
    await page.getByRole('button', { name: '关注', exact: true }).waitFor();
    await expect.poll(async () => Number(await followers.textContent())).toBe(before);
  });
});

describe.each(layouts)("deleting one's own post at $name", ({ viewport, ownPostIndex }) => {
  it('asks first, then the post leaves /home at once', async () => {
    await withBrowser(app, { viewport, logInAs: DEMO_PHONE }, async ({ page }) => {
      const post = ownPosts[ownPostIndex]!;
      await openMenuOnHome(page, post.id);
      // One's own post: 删除, never 投诉.
      await page.getByRole('dialog', { name: '选择操作' }).getByRole('button', { name: '删除' }).waitFor();
      expect(await page.getByRole('dialog', { name: '选择操作' }).getByRole('button', { name: '投诉' }).count()).toBe(0);
      await page.getByRole('dialog', { name: '选择操作' }).getByRole('button', { name: '删除' }).click();
      await page.getByRole('alertdialog', { name: '删除动态' }).getByRole('button', { name: '删除' }).click();
      await page.getByText('动态已删除').waitFor();
      expect(await page.locator(`#post-${post.id}-author`).count()).toBe(0);
      // The rest of the loaded feed stays (past 40 posts the list is windowed: a screenful or so in the DOM).
      expect(await page.locator('main article').count()).toBeGreaterThan(5);
      const detail = await fetch(`${app.url}${api.postDetail.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ post_id: post.id }),
      });
      expect(((await detail.json()) as { error?: { code: number } }).error?.code).toBe(-1005);
    });
  });
});

describe.each([
  { name: 'a phone, 375 px', device: { viewport: { width: 375, height: 812 }, hasTouch: true, userAgent: PHONE_USER_AGENT }, phone: '13900000104', other: '13900000204' },
  { name: 'a PC, 1280 px', device: { viewport: { width: 1280, height: 800 } }, phone: '13900000105', other: '13900000205' },
])('the replies of a comment on $name', ({ device, phone, other }) => {
  const { page } = useBrowser(app, { ...device, logInAs: phone });
  const mobile = device.viewport.width < 860;

  it('opens 共 N 条回复, pages to the last reply, answers it, and sees the answer at once, once sent and after a reload', async () => {
    // Someone else's comment with more replies than the first page of them holds (20).
    const tag = `${phone}-${Date.now()}`;
    const someone = await logInByApi(app, other);
    const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
    const post = await callAs<Post>(app, someone, api.postAdd.path, {
      content: `一个有很多回复的问题 ${tag}`,
      channel_id: [channelId],
      attach: [],
      client_id: `replies-post-${tag}`,
    });
    let written = 0;
    const add = (content: string, replyId?: number) =>
      callAs<Comment>(app, someone, api.commentAdd.path, { post_id: post.id, content, reply_id: replyId, client_id: `replies-${tag}-${++written}` });
    const root = await add(`楼主 ${tag}`);
    const replyText = (n: number) => `第 ${n} 条回复 ${tag}`;
    for (let n = 1; n <= 22; n++) await add(replyText(n), root.id);

    await page.goto(`${app.url}/message/detail/${post.id}`);
    const item = page.locator('.comment-list > li', { hasText: `楼主 ${tag}` });
    await item.scrollIntoViewIfNeeded();
    const toggle = item.getByRole('button', { name: '共 22 条回复' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await item.getByText(replyText(3)).waitFor();
    expect(await item.getByText(replyText(4)).count()).toBe(0);

    // A tap on the phone; the keyboard on the PC.
    if (mobile) await toggle.tap();
    else {
      await toggle.focus();
      await page.keyboard.press('Enter');
    }
    const close = item.getByRole('button', { name: '收起回复' });
    await close.waitFor();
    expect(await close.getAttribute('aria-expanded')).toBe('true');
    await item.getByText(replyText(20)).waitFor();
    expect(await item.getByText(replyText(21)).count()).toBe(0);
    const more = item.getByRole('button', { name: '加载更多回复' });
    if (mobile) await more.tap();
    else await more.click();
    await item.getByText(replyText(22)).waitFor();
    await more.waitFor({ state: 'detached' });

    // An answer to the last reply: under the comment at once, and still there once sent.
    const answer = `回答第 22 条 ${tag}`;
    const last = item.locator('.comment--reply', { hasText: replyText(22) });
    const nick = (await last.locator('.comment__author').textContent())!;
    await last.getByRole('button', { name: `回复 ${nick}` }).click();
    if (mobile) await page.waitForURL(/\/comment\?/);
    await page.getByRole('textbox', { name: `回复 ${nick}` }).fill(answer);
    await page.getByRole('button', { name: '发送', exact: true }).click();
    if (mobile) await page.waitForURL(new RegExp(`/message/detail/${post.id}$`));
    await item.getByText(answer).waitFor();
    await expect.poll(async () => (await callApi(app, api.commentReplies, { comment_id: root.id, size: 50 })).list.length).toBe(23);
    await expect.poll(() => item.locator('.outbox-pending').count()).toBe(0);
    await item.locator('.comment-replies__list').getByText(answer).waitFor();
    expect(await page.getByText(answer).count()).toBe(1);

    await page.reload();
    await item.locator('.comment-replies__list').getByText(answer).waitFor();
    expect(await item.getByRole('button', { name: '收起回复' }).getAttribute('aria-expanded')).toBe('true');
    // Every page read before the reload is shown again, once (the pages may render one after another).
    await item.getByText(replyText(21)).waitFor();
    expect(await item.getByText(replyText(21)).count()).toBe(1);

    // Closed: the first three again, and 共 23 条回复.
    await item.getByRole('button', { name: '收起回复' }).click();
    await item.getByRole('button', { name: '共 23 条回复' }).waitFor();
    expect(await item.getByText(answer).count()).toBe(0);

    if (mobile) {
      // Read a day later ("昨天 20:32", as long as a time gets): a reply's time stays on one
      // line, and its actions stay inside the reply.
      await page.clock.setFixedTime(Date.now() + 24 * 60 * 60 * 1000);
      await page.reload();
      const replies = item.locator('.comment--reply');
      await replies.first().locator('time', { hasText: /^昨天/ }).waitFor();
      const rows = await replies.evaluateAll((elements) =>
        elements.map((reply) => {
          const time = reply.querySelector('.comment__foot > time')!;
          const range = document.createRange();
          range.selectNodeContents(time);
          const actions = [...reply.querySelectorAll('.comment__foot > button')].map((button) => button.getBoundingClientRect().right);
          return {
            text: time.textContent,
            lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size,
            overflow: Math.max(...actions) - reply.getBoundingClientRect().right,
          };
        }),
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row, row.text ?? '').toMatchObject({ lines: 1, overflow: expect.any(Number) });
      for (const row of rows) expect(row.overflow).toBeLessThanOrEqual(0.5);
    }
  });
});

describe('写评论 on a phone', () => {
  it('is under the title at first; the bar at the bottom follows only once the reader is past it, so it covers nothing at load', async () => {
    await withBrowser(app, { viewport: layouts[1]!.viewport }, async ({ page }) => {
      await page.goto(`${app.url}/message/detail/${mostCommented.id}`);
      await page.locator('.comment-list .comment').first().waitFor();
      const bar = page.locator('.comment-bar');
      const opener = page.getByRole('link', { name: '写评论…' });
      expect(await bar.isVisible()).toBe(false);
      expect(await opener.count()).toBe(1);
      const inline = page.locator('.comments > .comment-opener');
      expect(await inline.isVisible()).toBe(true);

      await page.evaluate(() => {
        const { bottom } = document.querySelector('.comments > .comment-opener')!.getBoundingClientRect();
        window.scrollBy(0, bottom + 40);
      });
      await bar.waitFor({ state: 'visible' });
      await bar.getByRole('link', { name: '写评论…' }).click();
      await page.waitForURL(new RegExp(`/comment\\?post_id=${mostCommented.id}`));
      await page.getByRole('textbox', { name: '写评论' }).waitFor();

      await page.goBack();
      await page.locator('.comment-list .comment').first().waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      await bar.waitFor({ state: 'hidden' });
    });
  });
});

describe('the AI widget on PC', () => {
  it('steps aside while the reader writes, so a 发送 it lies over still sends, and comes back after', async () => {
    // A window with room for it beside the page (narrower, it waits docked at the edge: ai-widget.test.ts).
    await withBrowser(app, { viewport: { width: 1700, height: 900 }, logInAs: '13900000103' }, async ({ page }) => {
      await page.goto(`${app.url}/message/detail/${mostCommented.id}`);
      // The promo comes once the page is the app's (hydrated), placed by the window's layout.
      const widget = page.getByTestId('ai-widget');
      await expect.poll(() => widget.evaluate((el) => (el as HTMLElement).style.transform)).toContain('translate3d');
      const send = page.getByRole('button', { name: '发送', exact: true });
      // The page's later code and its comments in first: they move 发送 when they come.
      await page.waitForLoadState('networkidle');
      await send.scrollIntoViewIfNeeded();
      // The reader (or a short post, which leaves the box at the widget's height) puts it over 发送;
      // put again if the page moved 发送 meanwhile (the widget then lies where 发送 was).
      let over = '';
      await expect
        .poll(async () => {
          const from = (await widget.getByText('AI助手').boundingBox())!;
          const to = (await send.boundingBox())!;
          await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
          await page.mouse.down();
          await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
          await page.mouse.up();
          over = `document.elementFromPoint(${to.x + to.width / 2}, ${to.y + to.height / 2})?.closest('.ai-widget') !== null`;
          return page.evaluate(over);
        })
        .toBe(true);

      const text = `挡在发送上的助手 ${Date.now()}`;
      await page.getByRole('textbox', { name: '写评论' }).fill(text);
      expect(await page.evaluate(over)).toBe(false);
      await send.click();
      await page.getByText(text).waitFor();

      await page.getByRole('heading', { name: /^评论/ }).click();
      await expect.poll(() => widget.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
      expect(await page.evaluate(over)).toBe(true);
    });
  });
});

describe('sharing', () => {
  it('copies the post link where there is no share sheet, and the poster saves a PNG of the post', async () => {
    await withBrowser(app, { viewport: { width: 1280, height: 860 } }, async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
      await page.goto(`${app.url}/home`);
      const card = page.locator('main article').first();
      const postId = Number((await card.getAttribute('aria-labelledby'))!.match(/\d+/)![0]);
      await card.getByRole('button', { name: '更多' }).click();
      await page.getByRole('dialog', { name: '选择操作' }).getByRole('button', { name: '分享' }).click();
      await page.getByText('复制成功').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${app.url}/message/detail/${postId}`);

      await page.goto(`${app.url}/message/detail/poster/${postId}`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '保存图片' }).click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`-${postId}\\.png$`));
      const bytes = new Uint8Array(await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks)));
      expect(Array.from(bytes.subarray(1, 4))).toEqual([0x50, 0x4e, 0x47]); // "PNG"
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(16)).toBe(750);
    });
  });
});
