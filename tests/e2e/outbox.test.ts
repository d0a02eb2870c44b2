/**
 * The outbox in Chromium against the real built app and server, with the
 * network cut by context.setOffline: a post (with a picture) and a comment written offline show
 * 待发送 in place, survive a reload offline, and are published exactly once when the network is
 * back (counted through the API); the same when the network goes while the first send's answer
 * is on its way (the server made it, the page never heard); a like made offline stays lit over a
 * reload and is counted once; a complaint over 500 characters queued offline comes back with
 * -2902's message into its form; a waiting like and a waiting comment can be taken back; a
 * comment written offline outlives the browser closing and is sent once at a later start; a
 * comment written offline goes out when the network returns with every tab of the app closed (the
 * service worker's Background Sync, its `sync` event dispatched through the DevTools protocol), and
 * the next open says it went. Needs `npm run build` first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api } from '#shared/api.ts';
import type { Post } from '#shared/schemas.ts';
import { callApi } from './support/app.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { openBrowser, useApp } from './support/fixtures.ts';
import { watchRequests } from './support/requests.ts';
import { goOffline } from './support/offline.ts';

const PC = { width: 1280, height: 860 };
const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });
let phoneSeq = 200;

let browser: LaunchedBrowser;
let page: Page;
let context: BrowserContext;

const feed = async (size = 50): Promise<Post[]> => (await callApi(app, api.channelPosts, { tab: 'all', size })).list;
const postsSaying = async (text: string) => (await feed()).filter((post) => post.content === text);
const commentsSaying = async (postId: number, text: string) =>
  (await callApi(app, api.commentList, { post_id: postId, size: 50 })).list.filter((comment) => comment.content === text);

/** Opens the composer once online, so its code and the channel lists are there offline. */
async function warmComposer(): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: '发动态' }).click();
  const composer = page.getByRole('dialog', { name: '发动态' });
  await composer.locator('.composer-chip').first().waitFor();
  await composer.getByRole('button', { name: '关闭' }).click();
  await composer.waitFor({ state: 'detached' });
}

/** Writes and publishes a post from the composer (a channel chosen, an optional picture); the channel's name. */
async function writePost(text: string, picture?: Buffer): Promise<string> {
  await page.getByRole('banner').getByRole('button', { name: '发动态' }).click();
  const composer = page.getByRole('dialog', { name: '发动态' });
  await composer.getByRole('textbox', { name: '动态内容' }).fill(text);
  if (picture) {
    await composer.getByLabel('选择图片').setInputFiles({ name: 'offline.png', mimeType: 'image/png', buffer: picture });
    await composer.locator('.composer-image').waitFor();
  }
  const channel = composer.locator('.composer-chip').first();
  const channelName = (await channel.textContent())!.trim();
  await channel.click();
  await composer.getByRole('button', { name: '发布', exact: true }).click();
  await composer.waitFor({ state: 'detached' });
  return channelName;
}

/** Writes and sends a comment on the post page that is open. */
async function writeComment(text: string, on: Page = page): Promise<void> {
  await on.getByRole('textbox', { name: '写评论' }).fill(text);
  await on.getByRole('button', { name: '发送', exact: true }).click();
}

const pendingPost = (text: string) => page.getByRole('region', { name: '待发送的动态' }).locator('article', { hasText: text });
/**
 * A waiting post looks like the card it will be: its channel's chip by name, and its 待发送 a
 * small badge in the row of its 取消, at 1280 and at 375 px.
 */
async function expectPendingCard(text: string, channelName: string): Promise<void> {
  for (const viewport of [PC, { width: 375, height: 812 }]) {
    await page.setViewportSize(viewport);
    // The layout follows the width a render later: measure the card of the layout of that width.
    await page.locator(viewport.width < 860 ? '.app--mobile' : '.app--pc').waitFor();
    const card = pendingPost(text);
    await card.locator('.chip--channel', { hasText: channelName }).waitFor();
    const cardBox = (await card.boundingBox())!;
    const badge = (await card.getByText('待发送').boundingBox())!;
    const cancel = (await card.getByRole('button', { name: '取消' }).boundingBox())!;
    expect(badge.width).toBeLessThan(Math.min(100, cardBox.width / 3));
    expect(Math.abs(badge.y + badge.height / 2 - (cancel.y + cancel.height / 2))).toBeLessThanOrEqual(2);
  }
  await page.setViewportSize(PC);
}

const pendingComment = (text: string, on: Page = page) => on.getByRole('list', { name: '待发送的评论' }).locator('li', { hasText: text });

/** Opens the app in a browser, logged in as a new user, with the service worker in control of the page. */
async function openLoggedIn(options: { profileDir?: string } = {}): Promise<LaunchedBrowser> {
  const opened = await openBrowser(app, { viewport: PC, ...options, logInAs: `139000${String(phoneSeq++).padStart(5, '0')}` });
  await opened.page.evaluate(() => navigator.serviceWorker.ready);
  await opened.page.reload();
  await opened.page.locator('main article').first().waitFor();
  expect(await opened.page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  return opened;
}

/**
 * Lets the server make the first call to `path`, then cuts the network before its answer
 * reaches the page: the write is made, the page never hears of it.
 */
async function loseFirstAnswer(path: string): Promise<void> {
  let lost = false;
  await context.route(`**${path}`, async (route) => {
    if (lost) return route.continue();
    lost = true;
    await route.fetch();
    await context.setOffline(true);
    await route.abort('internetdisconnected');
  });
}

describe('the outbox', () => {
  /** A fresh profile, logged in as a user of its own, with the service worker in control. */
  beforeEach(async () => {
    browser = await openLoggedIn();
    ({ page, context } = browser);
  });
  afterEach(async () => {
    await browser?.close();
  });

  it('keeps a post with its picture and a comment written offline over a reload, and publishes each once when the network is back', async () => {
    const target = (await feed(1))[0]!;
    const postText = `离线写的动态 ${Date.now()}`;
    const commentText = `离线写的评论 ${Date.now()}`;
    const picture = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#fa8919' } }).png().toBuffer();
    await page.goto(`${app.url}/message/detail/${target.id}`);
    await page.getByRole('heading', { name: /^评论/ }).waitFor();
    await page.goto(`${app.url}/home`);
    await warmComposer();

    await context.setOffline(true);
    const channelName = await writePost(postText, picture);
    await pendingPost(postText).getByText('待发送').waitFor();
    expect(await pendingPost(postText).locator('.image-grid img').count()).toBe(1);
    await expectPendingCard(postText, channelName);
    // To the post within the app (a reload offline would not know who is logged in).
    await page.locator('main article', { has: page.locator(`#post-${target.id}-author`) }).getByRole('link', { name: /查看动态详情/ }).click();
    await page.waitForURL(new RegExp(`/message/detail/${target.id}$`));
    await writeComment(commentText);
    await pendingComment(commentText).getByText('待发送').waitFor();

    // Reloaded offline, both are still there, in place.
    await page.reload();
    await pendingComment(commentText).getByText('待发送').waitFor();
    await page.goto(`${app.url}/home`);
    await pendingPost(postText).getByText('待发送').waitFor();
    await page.getByRole('button', { name: '待发送 2' }).waitFor();
    expect(await postsSaying(postText)).toHaveLength(0);

    await context.setOffline(false);
    await pendingPost(postText).waitFor({ state: 'detached' });
    // The post leads the feed as published.
    await page.locator('main article', { hasText: postText }).first().waitFor();
    await expect.poll(async () => (await commentsSaying(target.id, commentText)).length).toBe(1);
    const published = await postsSaying(postText);
    expect(published).toHaveLength(1);
    expect(published[0]!.attach.filter((a) => a.type === 'image')).toHaveLength(1);
    await expect.poll(() => page.getByRole('button', { name: /^待发送/ }).count()).toBe(0);

    // Nothing more goes later: a reload and what it sets off change nothing.
    const requests = watchRequests(page);
    await page.reload();
    await page.locator('main article').first().waitFor();
    await requests.settled();
    expect(await postsSaying(postText)).toHaveLength(1);
    expect(await commentsSaying(target.id, commentText)).toHaveLength(1);
  });

  it('publishes once a post and a comment whose first answer was lost when the network went', async () => {
    const target = (await feed(2))[1]!;
    const postText = `答复丢失的动态 ${Date.now()}`;
    const commentText = `答复丢失的评论 ${Date.now()}`;
    await warmComposer();

    await loseFirstAnswer('/serv/v1/post/add');
    await writePost(postText);
    await pendingPost(postText).getByText('待发送').waitFor();
    // The server has it already; the page does not know.
    expect(await postsSaying(postText)).toHaveLength(1);
    await context.setOffline(false);
    await pendingPost(postText).waitFor({ state: 'detached' });
    await page.locator('main article', { hasText: postText }).first().waitFor();
    expect(await postsSaying(postText)).toHaveLength(1);

    await page.goto(`${app.url}/message/detail/${target.id}`);
    await page.getByRole('heading', { name: /^评论/ }).waitFor();
    await loseFirstAnswer('/serv/v1/comment/add');
    await writeComment(commentText);
    await pendingComment(commentText).getByText('待发送').waitFor();
    expect(await commentsSaying(target.id, commentText)).toHaveLength(1);
    // Still offline: a reload keeps it; back online it is sent again, and made once.
    await page.reload();
    await pendingComment(commentText).waitFor();
    await context.setOffline(false);
    await pendingComment(commentText).waitFor({ state: 'detached' });
    await page.locator('.comment-list .comment__text', { hasText: commentText }).first().waitFor();
    expect(await commentsSaying(target.id, commentText)).toHaveLength(1);
    expect(await postsSaying(postText)).toHaveLength(1);
  });

  it('keeps a like made offline lit over a reload, and counts it once', async () => {
    const card = page.locator('main article').nth(2);
    const postId = Number((await card.getAttribute('aria-labelledby'))!.match(/\d+/)![0]);
    const before = (await callApi(app, api.postDetail, { post_id: postId })).like_count;
    const like = card.getByRole('button', { name: `点赞 ${before}` });

    await goOffline(page);
    await like.click();
    await card.getByRole('button', { name: `取消点赞 ${before + 1}` }).waitFor();
    await page.reload();
    const again = page.locator('main article', { has: page.locator(`#post-${postId}-author`) });
    const lit = again.getByRole('button', { name: `取消点赞 ${before + 1}` });
    await lit.waitFor();
    expect(await lit.getAttribute('aria-pressed')).toBe('true');
    expect((await callApi(app, api.postDetail, { post_id: postId })).like_count).toBe(before);

    await context.setOffline(false);
    await expect.poll(async () => (await callApi(app, api.postDetail, { post_id: postId })).like_count).toBe(before + 1);
    const requests = watchRequests(page);
    await page.reload();
    await again.getByRole('button', { name: `取消点赞 ${before + 1}` }).waitFor();
    await requests.settled();
    expect((await callApi(app, api.postDetail, { post_id: postId })).like_count).toBe(before + 1);
  });

  it('gives a complaint of 501 characters queued offline back to its form with -2902’s message', async () => {
    const target = (await feed(1))[0]!;
    const words = '很'.repeat(501);
    await page.goto(`${app.url}/complain?type=post&id=${target.id}`);
    await page.getByRole('radio', { name: '垃圾广告' }).waitFor();

    await context.setOffline(true);
    await page.getByRole('radio', { name: '垃圾广告' }).check();
    await page.getByRole('textbox', { name: '补充说明（选填）' }).fill(words);
    await page.getByRole('button', { name: '提交' }).click();
    // Back where it came from (the toast may be replaced at once by 网络异常: one toast at a time).
    await page.waitForURL(/\/home$/);
    await page.getByRole('button', { name: '待发送 1' }).waitFor();

    await context.setOffline(false);
    const fab = page.getByRole('button', { name: '待发送 0 · 未发送 1' });
    await fab.waitFor();
    await fab.click();
    const sheet = page.getByRole('dialog', { name: '待发送 0' });
    await sheet.getByText('未发送：反馈内容请不要超过 500 字').waitFor();
    await sheet.getByRole('button', { name: '编辑' }).click();
    await page.waitForURL(/\/complain\?type=post&id=\d+$/);
    await expect.poll(() => page.getByRole('textbox', { name: '补充说明（选填）' }).inputValue()).toBe(words);
    expect(await page.getByRole('radio', { name: '垃圾广告' }).isChecked()).toBe(true);
    await page.locator('.complain-form__error', { hasText: '反馈内容请不要超过 500 字' }).waitFor();
    // Taken back by its form: no longer in the outbox.
    await expect.poll(() => page.getByRole('button', { name: /^待发送/ }).count()).toBe(0);
  });

  it('takes back a waiting like and a waiting comment: nothing is sent', async () => {
    const target = (await feed(3))[2]!;
    const before = (await callApi(app, api.postDetail, { post_id: target.id })).like_count;
    const commentText = `取消的评论 ${Date.now()}`;
    await page.goto(`${app.url}/message/detail/${target.id}`);
    await page.getByRole('heading', { name: /^评论/ }).waitFor();

    await goOffline(page);
    const article = page.locator('main article').first();
    await article.getByRole('button', { name: `点赞 ${before}` }).click();
    await article.getByRole('button', { name: `取消点赞 ${before + 1}` }).waitFor();
    await writeComment(commentText);
    await pendingComment(commentText).waitFor();

    await page.getByRole('button', { name: '待发送 2' }).click();
    const sheet = page.getByRole('dialog', { name: /^待发送/ });
    await sheet.locator('li', { hasText: '点赞' }).getByRole('button', { name: '取消' }).click();
    await article.getByRole('button', { name: `点赞 ${before}` }).waitFor();
    await sheet.getByRole('button', { name: '关闭' }).click();

    await pendingComment(commentText).getByRole('button', { name: '取消' }).click();
    await page.getByRole('alertdialog', { name: '取消发送' }).getByRole('button', { name: '取消发送' }).click();
    await pendingComment(commentText).waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('button', { name: /^待发送/ }).count()).toBe(0);

    await context.setOffline(false);
    const requests = watchRequests(page);
    await page.reload();
    await page.getByRole('heading', { name: /^评论/ }).waitFor();
    await requests.settled();
    expect((await callApi(app, api.postDetail, { post_id: target.id })).like_count).toBe(before);
    expect(await commentsSaying(target.id, commentText)).toHaveLength(0);
  });

  it('sends a comment written offline when the network returns with every tab closed, and says so at the next open', async () => {
    const target = (await feed(3))[2]!;
    const commentText = `没有标签页时发出的评论 ${Date.now()}`;
    await page.goto(`${app.url}/message/detail/${target.id}`);
    await page.getByRole('heading', { name: /^评论/ }).waitFor();
    await goOffline(page);
    await writeComment(commentText);
    await pendingComment(commentText).getByText('待发送').waitFor();
    await page.close();

    // Every tab of the app closed; the network comes back, and the browser fires the sync it was asked for.
    await context.setOffline(false);
    const blank = await context.newPage();
    const devtools = await context.newCDPSession(blank);
    const origin = new URL(app.url).origin;
    const registrationId = new Promise<string>((found) => {
      devtools.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL.startsWith(origin) && !registration.isDeleted);
        if (ours) found(ours.registrationId);
      });
    });
    await devtools.send('ServiceWorker.enable');
    await devtools.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId: await registrationId, tag: 'outbox', lastChance: false });
    await expect.poll(async () => (await commentsSaying(target.id, commentText)).length).toBe(1);

    // The next open says it went and shows it, with nothing left to send. The toast lasts a moment
    // from the app's start, which page.goto waits for: it is looked for from the navigation on.
    const told = blank.getByText('待发送的评论已发出').waitFor();
    await blank.goto(`${app.url}/message/detail/${target.id}`);
    await told;
    await blank.locator('.comment-list .comment__text', { hasText: commentText }).first().waitFor();
    expect(await blank.getByRole('list', { name: '待发送的评论' }).count()).toBe(0);
    expect(await commentsSaying(target.id, commentText)).toHaveLength(1);
  });
});

describe('the outbox across a browser restart', () => {
  it('keeps a comment written offline when the browser closes, shows it at the next start offline, and sends it once at a start online', async () => {
    const profileDir = await mkdtemp(join(tmpdir(), 'feed-e2e-outbox-profile-'));
    let opened = await openLoggedIn({ profileDir });
    try {
      const target = (await feed(4))[3]!;
      const commentText = `关掉浏览器前写的评论 ${Date.now()}`;
      await opened.page.goto(`${app.url}/message/detail/${target.id}`);
      await opened.page.getByRole('heading', { name: /^评论/ }).waitFor();
      await opened.context.setOffline(true);
      await writeComment(commentText, opened.page);
      await pendingComment(commentText, opened.page).getByText('待发送').waitFor();
      await opened.page.getByRole('button', { name: '待发送 1' }).waitFor();
      await opened.close();

      // The browser starts again with no network at all (from the start: it may restore the last
      // tab, and its service worker may wake for the sync the page asked for): the comment waits
      // where it was written.
      opened = await launchBrowser({ viewport: PC, profileDir, noNetwork: true });
      await opened.page.goto(`${app.url}/message/detail/${target.id}`);
      await pendingComment(commentText, opened.page).getByText('待发送').waitFor();
      expect(await commentsSaying(target.id, commentText)).toHaveLength(0);
      await opened.close();

      // At a start with the network, it goes once (the page or its worker, whichever first).
      opened = await launchBrowser({ viewport: PC, profileDir });
      await opened.page.goto(`${app.url}/message/detail/${target.id}`);
      await opened.page.locator('.comment-list .comment__text', { hasText: commentText }).first().waitFor();
      await expect.poll(() => opened.page.getByRole('list', { name: '待发送的评论' }).count()).toBe(0);
      await expect.poll(async () => (await commentsSaying(target.id, commentText)).length).toBe(1);
    } finally {
      await opened.close();
      await rm(profileDir, { recursive: true, force: true, maxRetries: 3 });
    }
  });
});
