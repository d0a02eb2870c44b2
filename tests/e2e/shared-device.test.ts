/**
 * One phone (375 px), several people: a user's unsent comment and draft stay theirs. Written
 * offline, its send blocked once the network is back, the comment waits; 退出登录 asks what
 * becomes of it. Kept: the next visitor sees neither the comment nor its author nor the draft,
 * the copy of the cache on the device holds nothing read as the user, a second account neither
 * sees nor sends it, and the user's next login sends it once and gives the draft back.
 * Discarded: it is gone from the device, and nothing is sent at the next login.
 * Needs `npm run build` first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, type Endpoint } from '#shared/api.ts';
import { TICKET_COOKIE } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Post } from '#shared/schemas.ts';
import { callApi, feedPosts, startApp, type RunningApp } from './support/app.ts';
import { launchBrowser, PHONE_USER_AGENT, type LaunchedBrowser } from './support/browser.ts';
import { logIn } from './support/session.ts';
import { goOffline } from './support/offline.ts';

let app: RunningApp;
let browser: LaunchedBrowser | undefined;

beforeAll(async () => {
  app = await startApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });
});
afterAll(async () => {
  await app?.stop();
});
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

const newPhone = (): string => `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const postCard = (page: Page) => page.locator('article.post-card--full');
const outboxButton = (page: Page) => page.getByRole('button', { name: /^待发送 \d+/ });
const commentsSaying = async (postId: number, text: string) =>
  (await callApi(app, api.commentList, { post_id: postId, size: 50 })).list.filter((comment) => comment.content === text);

async function openPost(page: Page, post: Post): Promise<void> {
  await page.goto(`${app.url}/message/detail/${post.id}`);
  await postCard(page).waitFor();
}

/** /home: on a phone the account's menu (and 登录) sits in the feed's top bar. */
async function goHome(page: Page): Promise<void> {
  await page.goto(`${app.url}/home`);
  await page.locator('main article').first().waitFor();
}

async function logOut(page: Page, unsent?: '保留，下次登录后自动发送' | '丢弃并退出'): Promise<void> {
  await goHome(page);
  await page.getByRole('button', { name: /^账号菜单/ }).click();
  await page.getByRole('button', { name: '退出登录' }).click();
  if (unsent) {
    await page.getByRole('heading', { name: /^还有 1 条内容未发送/ }).waitFor();
    await page.getByRole('button', { name: unsent }).click();
  }
  await page.getByRole('banner').getByRole('button', { name: '登录' }).waitFor();
}

/** Offline, a comment on the post; online again, its send blocked (the server unwell for that call): it waits. */
async function leaveAWaitingComment(context: BrowserContext, page: Page, text: string): Promise<void> {
  await goOffline(page);
  await page.locator('.comments').getByRole('link', { name: '写评论…' }).click();
  await page.getByRole('textbox', { name: '写评论' }).fill(text);
  await page.getByRole('button', { name: '发送', exact: true }).click();
  await postCard(page).waitFor();
  await page.getByRole('list', { name: '待发送的评论' }).locator('li', { hasText: text }).getByText('待发送').waitFor();
  await context.route('**/serv/v1/comment/add', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  await context.setOffline(false);
  await outboxButton(page).waitFor();
}

/** The header once the app knows nobody is logged in: 登录, and the page's own cookie no longer authenticates. */
async function loggedOutHeader(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: '登录' }).waitFor();
  expect(await page.getByRole('button', { name: /^账号菜单/ }).count()).toBe(0);
}

/** A call with the browser's ticket cookie, from outside the browser. */
async function callApiAs(ticket: string, endpoint: Endpoint): Promise<{ code: number }> {
  const post = endpoint.method === 'POST';
  const response = await fetch(`${app.url}${endpoint.path}`, {
    method: endpoint.method,
    headers: { cookie: `${TICKET_COOKIE}=${ticket}`, ...(post ? { 'content-type': 'application/json' } : {}) },
    ...(post ? { body: '{}' } : {}),
  });
  const envelope = (await response.json()) as { code: number; error?: { code: number } };
  return { code: envelope.error?.code ?? envelope.code };
}

/** The query keys of the cache's copy in IndexedDB, and the writes IndexedDB's outbox holds. */
async function storedOnDevice(page: Page): Promise<{ keys: string[]; writes: { uid: number; text: string }[] }> {
  return page.evaluate(async () => {
    const open = (name: string) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const opening = indexedDB.open(name);
        opening.onsuccess = () => resolve(opening.result);
        opening.onerror = () => reject(opening.error);
      });
    const all = <T>(db: IDBDatabase, store: string, query?: IDBValidKey) =>
      new Promise<T[]>((resolve) => {
        try {
          const reading = query === undefined ? db.transaction(store).objectStore(store).getAll() : db.transaction(store).objectStore(store).getAll(query);
          reading.onsuccess = () => resolve(reading.result as T[]);
          reading.onerror = () => resolve([]);
        } catch {
          resolve([]);
        }
      });
    const [client] = await all<{ clientState?: { queries: { queryKey: unknown }[] } }>(await open('local-cache:query-cache'), 'entries', ['v', 'client']);
    const writes = await all<{ uid: number; text: string }>(await open('horde-outbox'), 'writes');
    return { keys: (client?.clientState?.queries ?? []).map((query) => JSON.stringify(query.queryKey)), writes: writes.map(({ uid, text }) => ({ uid, text })) };
  });
}

describe('one phone, several people', () => {
  let post: Post;
  beforeAll(async () => {
    post = (await feedPosts(app, 1))[0]!;
  });

  it('keeps a user’s unsent comment and draft for their next login, unseen and unsent by anyone else', { timeout: 300_000 }, async () => {
    browser = await launchBrowser({ viewport: { width: 375, height: 812 }, userAgent: PHONE_USER_AGENT, hasTouch: true });
    const { context, page } = browser;
    const [first, second] = [newPhone(), newPhone()];
    const text = `下线前没发出去的评论 ${Date.now()}`;
    const draft = `写了一半的动态 ${Date.now()}`;

    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await logIn(app, page, first);
    const me = await page.evaluate(async () => ((await (await fetch(`/serv/v1/user/auth?t=${Date.now()}`)).json()) as { data: { uid: number; nick: string } }).data);
    await page.evaluate(() => navigator.serviceWorker.ready);
    // A draft of a post, left in the composer.
    await page.getByRole('button', { name: '发动态' }).click();
    await page.getByRole('textbox', { name: '动态内容' }).fill(draft);
    await page.getByRole('dialog', { name: '发动态' }).getByRole('button', { name: '关闭' }).click();
    await openPost(page, post);
    await leaveAWaitingComment(context, page, text);

    await logOut(page, '保留，下次登录后自动发送');
    // Whoever picks the phone up next sees nothing of it.
    await openPost(page, post);
    await page.locator('.comments').waitFor();
    expect(await page.getByText(text).count()).toBe(0);
    expect(await page.getByRole('list', { name: '待发送的评论' }).count()).toBe(0);
    expect(await outboxButton(page).count()).toBe(0);
    const stored = await storedOnDevice(page);
    expect(stored.keys.filter((key) => key.includes(`${me.uid}`) || key.startsWith('["session"'))).toEqual([]);
    expect(stored.writes).toEqual([{ uid: me.uid, text }]);
    expect(await page.evaluate(() => localStorage.getItem('horde:login-user'))).toBeNull();

    // A second account on the same phone: neither sees it nor sends it, and its login drops it.
    await context.unroute('**/serv/v1/comment/add');
    await goHome(page);
    await logIn(app, page, second);
    await expect.poll(async () => (await storedOnDevice(page)).writes).toEqual([]);
    await openPost(page, post);
    await postCard(page).getByRole('button', { name: /^点赞 / }).click();
    await postCard(page).getByRole('button', { name: /^取消点赞 / }).waitFor();
    await expect.poll(async () => (await callApi(app, api.postDetail, { post_id: post.id })).like_count).toBe(post.like_count + 1);
    expect(await outboxButton(page).count()).toBe(0);
    expect(await page.getByText(text).count()).toBe(0);
    expect(await commentsSaying(post.id, text)).toEqual([]);
    await page.goto(`${app.url}/home?compose=1`);
    await expect.poll(() => page.getByRole('textbox', { name: '动态内容' }).inputValue()).toBe('');
    await page.getByRole('dialog', { name: '发动态' }).getByRole('button', { name: '关闭' }).click();
    await logOut(page);

    // Back: the draft is there again; the comment was let go at the other login.
    await goHome(page);
    await logIn(app, page, first);
    await page.goto(`${app.url}/home?compose=1`);
    await expect.poll(() => page.getByRole('textbox', { name: '动态内容' }).inputValue()).toBe(draft);
    expect((await storedOnDevice(page)).writes).toEqual([]);
    expect(await commentsSaying(post.id, text)).toEqual([]);
  });

  it('ends a logout chosen offline at once and for good: nobody is logged in, from any tab, after a reload and a restart, until the user logs in again', { timeout: 300_000 }, async () => {
    const profileDir = await mkdtemp(join(tmpdir(), 'feed-e2e-logout-'));
    const account = newPhone();
    const phone = { viewport: { width: 375, height: 812 }, userAgent: PHONE_USER_AGENT, hasTouch: true, profileDir };
    try {
      browser = await launchBrowser(phone);
      let { context, page } = browser;
      const text = `离线时退出前写的评论 ${Date.now()}`;
      await page.goto(`${app.url}/home`);
      await page.locator('main article').first().waitFor();
      await logIn(app, page, account);
      // The httpOnly ticket, which only the server can end. Read before the logout: any request of the
      // browser's that slips past the emulated offline state rightly ends it (and clears it) at once.
      const ticket = (await context.cookies()).find((cookie) => cookie.name === TICKET_COOKIE)?.value;
      expect(ticket).toBeTruthy();
      await page.evaluate(() => navigator.serviceWorker.ready);
      await openPost(page, post);
      await goOffline(page);
      await page.locator('.comments').getByRole('link', { name: '写评论…' }).click();
      await page.getByRole('textbox', { name: '写评论' }).fill(text);
      await page.getByRole('button', { name: '发送', exact: true }).click();
      await page.getByRole('list', { name: '待发送的评论' }).locator('li', { hasText: text }).getByText('待发送').waitFor();
      await logOut(page, '保留，下次登录后自动发送');

      await page.reload();
      await loggedOutHeader(page);

      // The browser restarts with no network; the network comes back while another tab is open.
      await browser.close();
      browser = await launchBrowser({ ...phone, offline: true });
      ({ context, page } = browser);
      await page.goto(`${app.url}/home`);
      await loggedOutHeader(page);
      // What was read as the user left with them: offline, the other tab has the app, not the post.
      const other = await context.newPage();
      await other.goto(`${app.url}/home`);
      await loggedOutHeader(other);
      await page.close();
      await context.setOffline(false);
      await expect.poll(async () => (await callApiAs(ticket!, api.auth)).code, { timeout: 30_000 }).toBe(ErrorCode.NotLoggedIn);
      await other.goto(`${app.url}/home`);
      await loggedOutHeader(other);
      expect(await commentsSaying(post.id, text)).toEqual([]);
      expect((await storedOnDevice(other)).writes.map((write) => write.text)).toEqual([text]);

      // Their next login here sends what they kept, once.
      await logIn(app, other, account);
      await expect.poll(async () => (await commentsSaying(post.id, text)).length, { timeout: 30_000 }).toBe(1);
    } finally {
      await browser?.close();
      browser = undefined;
      await rm(profileDir, { recursive: true, force: true });
    }
  });

  it('lets a user discard their unsent comment as they log out: nothing of it stays, nothing is sent', { timeout: 300_000 }, async () => {
    browser = await launchBrowser({ viewport: { width: 375, height: 812 }, userAgent: PHONE_USER_AGENT, hasTouch: true });
    const { context, page } = browser;
    const phone = newPhone();
    const text = `不要了的评论 ${Date.now()}`;
    await page.goto(`${app.url}/home`);
    await page.locator('main article').first().waitFor();
    await logIn(app, page, phone);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await openPost(page, post);
    await leaveAWaitingComment(context, page, text);

    await logOut(page, '丢弃并退出');
    expect((await storedOnDevice(page)).writes).toEqual([]);
    await context.unroute('**/serv/v1/comment/add');
    await goHome(page);
    await logIn(app, page, phone);
    await openPost(page, post);
    // A like of theirs goes through the queue: had the comment waited, it would have gone first.
    await postCard(page).getByRole('button', { name: /^(取消)?点赞 / }).click();
    await expect.poll(async () => (await storedOnDevice(page)).writes).toEqual([]);
    expect(await commentsSaying(post.id, text)).toEqual([]);
  });
});
