/**
 * An ordinary day offline, at 375 px (a phone) and at 1280 px, against the built app, the real
 * server and its database: log in through the UI, read /home and one post online, cut the
 * network and start the app again (everything below comes from what that one visit kept), then
 * write a post with a picture in a channel, a comment, a reply, a like, a comment like, a vote, a
 * channel follow, a user follow and a complaint. Reloaded offline, all nine still wait as 待发送;
 * online again, each is made exactly once (counted through the API and, for the complaint, in
 * the database), and a second tab open on the post all along shows them without a reload.
 * A visitor offline is told to log in once online instead of getting a login popup that cannot work.
 * Needs `npm run build` first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Comment, LoginUser, Post } from '#shared/schemas.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { comments, complaints } from '../../src/server/db/schema.ts';
import { migrationsFolder } from '../support/db.ts';
import { allFeedPosts, callApi, startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, PHONE_USER_AGENT, type LaunchedBrowser } from './support/browser.ts';
import { logIn } from './support/session.ts';
import { goOffline } from './support/offline.ts';

const PHONE = { viewport: { width: 375, height: 812 }, userAgent: PHONE_USER_AGENT, hasTouch: true };
const PC = { viewport: { width: 1280, height: 860 } };

let app: RunningApp | undefined;
let dataDir: string | undefined;
let browser: LaunchedBrowser | undefined;

afterEach(async () => {
  await browser?.close();
  await app?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  browser = app = dataDir = undefined;
});

const newPhone = (): string => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** A post of the demo a new user can do everything to: an open poll, a comment to answer, a channel. */
async function postToRead(running: RunningApp): Promise<{ post: Post; comment: Comment }> {
  for (const post of await allFeedPosts(running)) {
    const open = post.vote && !post.vote.is_voted && (post.vote.end_time === null || post.vote.end_time > Date.now() + 3_600_000);
    if (!open || post.channels.length === 0 || post.comment_count === 0) continue;
    const comment = (await callApi(running, api.commentList, { post_id: post.id, size: 20 })).list.find((c) => !c.is_deleted && c.content.trim());
    if (comment) return { post, comment };
  }
  throw new Error('no post with an open poll, a channel and a comment in the demo');
}

/** The query keys the persisted query cache holds (IndexedDB, as the app stores it). */
async function persistedKeys(page: Page): Promise<string[]> {
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

async function whoAmI(page: Page): Promise<LoginUser> {
  return page.evaluate(async () => ((await (await fetch(`/serv/v1/user/auth?t=${Date.now()}`)).json()) as { data: LoginUser }).data);
}

const postCard = (page: Page) => page.locator('article.post-card--full');
const outboxButton = (page: Page) => page.getByRole('button', { name: /^待发送 \d+/ });

/** Writes a comment, or a reply to the comment shown in `replyIn` (mobile: on /comment, then back to the post). */
async function writeComment(page: Page, text: string, mobile: boolean, replyTo?: { nick: string; in: Locator }): Promise<void> {
  if (replyTo) await replyTo.in.getByRole('button', { name: `回复 ${replyTo.nick}` }).first().click();
  else if (mobile) await page.locator('.comments').getByRole('link', { name: '写评论…' }).click();
  const box = page.getByRole('textbox', { name: replyTo ? `回复 ${replyTo.nick}` : '写评论' });
  await box.fill(text);
  await page.getByRole('button', { name: '发送', exact: true }).click();
  // Mobile: /comment goes back to the post once the words are in the outbox; PC: the box empties
  // (a reply's box then closes: gone counts as emptied, never waited for).
  if (mobile) await postCard(page).waitFor();
  else await expect.poll(() => box.evaluateAll((fields) => fields.every((field) => (field as HTMLTextAreaElement).value === ''))).toBe(true);
}

describe.each([
  ['a phone (375 px)', PHONE],
  ['a PC (1280 px)', PC],
] as const)('an ordinary day offline on %s', (_name, device) => {
  const mobile = device === PHONE;

  it('writes nine kinds of things offline, keeps them over a reload, and makes each once when the network is back', { timeout: 300_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'feed-e2e-day-'));
    app = await startApp({ env: { DATA_DIR: dataDir } });
    const running = app;
    const { post, comment } = await postToRead(running);
    const channel = post.channels[0]!;
    const before = {
      likes: post.like_count,
      votes: post.vote!.total,
      commentLikes: comment.like_count,
      followers: (await callApi(running, api.userInfo, { visit_user_id: post.user.uid })).follower_count,
    };
    const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a7ae2' } }).png().toBuffer();
    const stamp = Date.now();
    const texts = { post: `地铁上写的动态 ${stamp}`, comment: `地铁上写的评论 ${stamp}`, reply: `地铁上写的回复 ${stamp}`, complaint: `离线投诉 ${stamp}` };

    browser = await launchBrowser(device);
    const { context, page } = browser;

    // Online: /home, a login through the UI, the post.
    await page.goto(`${running.url}/home`);
    await page.locator('main article').first().waitFor();
    await logIn(running, page, newPhone());
    const me = await whoAmI(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.goto(`${running.url}/message/detail/${post.id}`);
    await postCard(page).waitFor();
    await page.locator('.comment-list').getByText(comment.content.slice(0, 12)).first().waitFor();
    // A second tab on the post, open all day long.
    const second = await context.newPage();
    await second.goto(`${running.url}/message/detail/${post.id}`);
    await postCard(second).waitFor();
    // The day goes on in the first tab: a tab in the background gets no animation frames, and every
    // click there would wait out Playwright's check that the element is still.
    await page.bringToFront();

    // What that visit kept (for writing too: channels, followed channels, topics, complaint reasons) is stored.
    const needed = [
      ['channels', 'categories'],
      ['channels', 'followed', me.uid],
      ['topics', 'list'],
      ['complain', 'reasons'],
      ['posts', 'detail', post.id],
      ['comments', post.id],
    ].map((key) => JSON.stringify(key));
    await expect.poll(async () => {
      const keys = await persistedKeys(page);
      return needed.filter((key) => !keys.includes(key));
    }, { timeout: 30_000 }).toEqual([]);

    // Offline, and the app started again from what the device kept.
    await context.setOffline(true);
    await page.reload();
    await postCard(page).waitFor();

    // A post with a picture, in a channel: the composer offers the channels offline.
    await page.goto(`${running.url}/home`);
    await page.locator('main article').first().waitFor();
    await page.getByRole('button', { name: '发动态' }).first().click();
    const composer = page.getByRole('dialog', { name: '发动态' });
    await composer.getByRole('textbox', { name: '动态内容' }).fill(texts.post);
    await composer.getByLabel('选择图片').setInputFiles({ name: 'subway.png', mimeType: 'image/png', buffer: picture });
    await composer.locator('.composer-image').waitFor();
    await composer.locator('.composer-chip', { hasText: channel.channel_name }).first().click();
    await composer.getByRole('button', { name: '发布', exact: true }).click();
    await composer.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: '待发送的动态' }).locator('article', { hasText: texts.post }).getByText('待发送').waitFor();

    // On the post: a like, a comment, a reply, a comment like, a vote, a follow of its author.
    await page.goto(`${running.url}/message/detail/${post.id}`);
    await postCard(page).waitFor();
    await postCard(page).getByRole('button', { name: `点赞 ${before.likes}` }).click();
    await postCard(page).getByRole('button', { name: `取消点赞 ${before.likes + 1}` }).waitFor();
    const commentItem = page.locator('.comment-list > li', { hasText: comment.content.slice(0, 12) }).first();
    await writeComment(page, texts.comment, mobile);
    await page.getByRole('list', { name: '待发送的评论' }).locator('li', { hasText: texts.comment }).getByText('待发送').waitFor();
    await writeComment(page, texts.reply, mobile, { nick: comment.user.nick, in: commentItem });
    await page.getByRole('list', { name: '待发送的评论' }).locator('li', { hasText: texts.reply }).getByText('待发送').waitFor();
    await commentItem.getByRole('button', { name: `点赞 ${before.commentLikes}` }).first().click();
    await commentItem.getByRole('button', { name: `取消点赞 ${before.commentLikes + 1}` }).first().waitFor();
    await postCard(page).locator('.vote__option--choice input').first().check();
    await postCard(page).getByRole('button', { name: '投票' }).click();
    await postCard(page).getByRole('list', { name: '投票结果' }).waitFor();
    await postCard(page).getByRole('button', { name: '关注', exact: true }).click();
    await postCard(page).getByRole('button', { name: '已关注' }).waitFor();

    // A complaint about the post: its reasons are there offline.
    await postCard(page).getByRole('button', { name: '更多' }).click();
    await page.getByRole('button', { name: '投诉' }).click();
    await page.waitForURL(/\/complain\?/);
    await page.getByRole('radio').first().check();
    await page.getByRole('textbox', { name: '补充说明（选填）' }).fill(texts.complaint);
    await page.getByRole('button', { name: '提交' }).click();
    await postCard(page).waitFor();

    // A follow of the post's channel, from its page (the directory's copy of it).
    await postCard(page).getByRole('link', { name: channel.channel_name }).first().click();
    await page.waitForURL(new RegExp(`/channel/list/${channel.channel_id}$`));
    await page.getByRole('button', { name: '关注', exact: true }).click();
    await page.getByRole('button', { name: '已关注' }).waitFor();
    // Stored, not only shown (a page left within moments of a tap may not have stored it yet).
    await expect.poll(() => outboxButton(page).textContent()).toMatch(/^待发送 9/);

    // Reloaded offline: all nine still wait, in the order made, each 待发送.
    await page.goto(`${running.url}/message/detail/${post.id}`);
    await postCard(page).waitFor();
    await outboxButton(page).waitFor();
    expect(await outboxButton(page).textContent()).toMatch(/^待发送 9/);
    await postCard(page).getByRole('button', { name: `取消点赞 ${before.likes + 1}` }).waitFor();
    await postCard(page).getByRole('button', { name: '已关注' }).waitFor();
    await outboxButton(page).click();
    const sheet = page.getByRole('dialog', { name: /^待发送/ });
    const rows = sheet.locator('.outbox-sheet__item');
    await expect.poll(() => rows.locator('.outbox-sheet__label').allTextContents()).toEqual([
      '动态',
      '点赞',
      '评论',
      '回复',
      '点赞评论',
      '投票',
      '关注',
      '投诉',
      '关注频道',
    ]);
    expect(await rows.locator('.outbox-badge').allTextContents()).toEqual(Array(9).fill('待发送'));
    await sheet.getByRole('button', { name: '关闭' }).click();

    // Online again: everything goes, and the outbox empties.
    await context.setOffline(false);
    await expect.poll(() => outboxButton(page).count(), { timeout: 60_000 }).toBe(0);

    // Each made exactly once.
    const posts = (await allFeedPosts(running)).filter((p) => p.content === texts.post);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.attach.filter((a) => a.type === 'image')).toHaveLength(1);
    expect(posts[0]!.channels.map((c) => c.channel_id)).toEqual([channel.channel_id]);
    const listed = (await callApi(running, api.commentList, { post_id: post.id, size: 50 })).list;
    expect(listed.filter((c) => c.content === texts.comment)).toHaveLength(1);
    expect(listed.find((c) => c.id === comment.id)?.like_count).toBe(before.commentLikes + 1);
    const read = await callApi(running, api.postDetail, { post_id: post.id });
    expect(read.like_count).toBe(before.likes + 1);
    expect(read.vote?.total).toBe(before.votes + 1);
    const likers = (await callApi(running, api.likeList, { post_id: post.id, size: 50 })).list;
    expect(likers.filter((user) => user.uid === me.uid)).toHaveLength(1);
    expect((await callApi(running, api.userInfo, { visit_user_id: post.user.uid })).follower_count).toBe(before.followers + 1);
    const followed = (await callApi(running, api.userChannelList, { source: 1, visit_user_id: me.uid })).list;
    expect(followed.filter((c) => c.channel_id === channel.channel_id)).toHaveLength(1);

    // The second tab, never reloaded, shows them.
    await postCard(second).getByRole('button', { name: `取消点赞 ${before.likes + 1}` }).waitFor();
    await postCard(second).getByRole('button', { name: '已关注' }).waitFor();
    await postCard(second).getByRole('list', { name: '投票结果' }).waitFor();
    await second.locator('.comment-list').getByText(texts.comment).waitFor();
    await second.locator('.comment-list').getByText(texts.reply).waitFor();

    // The reply (a comment's first replies are all the list carries) and the complaint, counted in the database once the server has stopped.
    await browser.close();
    await running.stop();
    app = undefined;
    const database = await openDatabase({ dataDir, migrationsFolder });
    try {
      const [filed] = await database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(complaints)
        .where(and(eq(complaints.userId, me.uid), eq(complaints.targetId, post.id), eq(complaints.content, texts.complaint)));
      expect(filed?.count).toBe(1);
      const [replied] = await database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(comments)
        .where(and(eq(comments.userId, me.uid), eq(comments.rootId, comment.id), eq(comments.content, texts.reply)));
      expect(replied?.count).toBe(1);
    } finally {
      await database.close();
    }
  });
});

describe('a visitor offline', () => {
  it('is told to log in once online, not given a login popup that cannot work', { timeout: 120_000 }, async () => {
    app = await startApp();
    const { post } = await postToRead(app);
    browser = await launchBrowser(PHONE);
    const { page } = browser;
    await page.goto(`${app.url}/message/detail/${post.id}`);
    await postCard(page).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    await goOffline(page);
    await postCard(page).getByRole('button', { name: `点赞 ${post.like_count}` }).click();
    await page.getByText('当前网络不可用，请联网后登录').waitFor();
    expect(await page.getByRole('dialog', { name: '手机号登录' }).count()).toBe(0);
    expect(await postCard(page).getByRole('button', { name: `点赞 ${post.like_count}` }).count()).toBe(1);
  });
});
