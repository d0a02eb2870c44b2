/**
 * Nothing a reader does on the server's first screen before the app has started is lost: on a slow
 * phone (Chromium's CPU slowed 6x, a slow network), logged in through the UI, at 375 and 1280 px.
 * The page's start script is held until the reader has acted, so each act surely comes before the
 * app (and before that script: taps made then were lost). A tap on a like, on 更多 or on a tab is
 * shown as pending and answered once, after the start; words typed into the comment box and a
 * poll's choice stay, and enable 发送 and 投票. Needs `npm run build` first.
 */
import type { CDPSession, Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { callApi } from './support/app.ts';
import { callAs, logInByApi } from './support/hostile.ts';
import { PHONE_USER_AGENT, waitForApp } from './support/browser.ts';
import { useApp, useBrowser } from './support/fixtures.ts';

const app = useApp();

// The newest post has a poll, so /home's first screen shows one: the demo is seeded as of the
// run's time of day, and at some hours its first page has none.
beforeAll(async () => {
  const author = await logInByApi(app, '15835100009');
  const channelId = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.channels[0]!.channel_id;
  await callAs(app, author, api.postAdd.path, {
    content: '早到的投票：你用哪种语言刷题？',
    channel_id: [channelId],
    attach: [],
    vote: { title: '刷题用的语言', multiple: false, options: ['Go', 'Rust', 'Python'] },
    client_id: `before-start-poll-${Date.now()}`,
  });
});

/** A mid-range phone on a slow mobile network, as Lighthouse's throttling has it, with the CPU 6x slower. */
const CPU_SLOWDOWN = 6;
const SLOW_NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const START_SCRIPT = '**/start-after-first-paint.js';

interface SlowPage {
  /** Lets the start script through and waits for the app to have taken the page over. */
  start(): Promise<void>;
}

/** Opens `path` as a slow phone does, with the app's start held: the page is the server's HTML alone until start(). */
async function openBeforeStart(page: Page, path: string): Promise<SlowPage> {
  // The page itself: the fixture's stand-in for it is not one to CDP.
  const cdp: CDPSession = await page.context().newCDPSession(page.mainFrame().page());
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  await page.route(START_SCRIPT, async (route) => {
    held = true;
    await released;
    await route.continue();
  });
  await page.goto(`${app.url}${path}`, { waitUntil: 'commit' });
  return {
    async start() {
      // The act came before the start script ran: it was held.
      expect(held).toBe(true);
      expect(await page.locator('#root > .first-screen--mobile, #root > .first-screen--pc').count()).toBe(1);
      release();
      await waitForApp(page);
      await page.unroute(START_SCRIPT);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    },
  };
}

/** The requests of the page to `path` from now on. */
function watchCalls(page: Page, path: string): Request[] {
  const made: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) made.push(request);
  });
  return made;
}

describe.each([
  { name: 'a phone, 375 px', viewport: { width: 375, height: 740 }, userAgent: PHONE_USER_AGENT, phone: '15835100001', card: 0 },
  { name: 'a PC, 1280 px', viewport: { width: 1280, height: 800 }, userAgent: undefined, phone: '15835100002', card: 1 },
])('before the app has started, on $name', ({ viewport, userAgent, phone, card }) => {
  // No service worker: the page's files come from the network, where the start script can be held.
  const browser = useBrowser(() => app, { viewport, ...(userAgent ? { userAgent } : {}), blockServiceWorkers: true, logInAs: phone });

  it('a like tapped as soon as it shows is marked pending, then counts once', async () => {
    const page = browser.page;
    const post = (await callApi(app, api.channelPosts, { tab: 'all', size: 10 })).list[card]!;
    const slow = await openBeforeStart(page, '/home');
    const like = page.locator('main article', { has: page.locator(`#post-${post.id}-author`) }).locator('footer button[aria-pressed]');
    await like.click();
    expect(await like.getAttribute('data-early-tap')).toBe('');
    const tapped = (await like.elementHandle())!;
    const likes = watchCalls(page, api.likeAdd.path);
    await slow.start();
    try {
      await expect.poll(() => like.getAttribute('aria-label')).toBe(`取消点赞 ${post.like_count + 1}`);
    } catch (error) {
      // Two ways to lose the tap, told apart: a card the app rendered again in place of the
      // server's drops the taps made on it (lib/early-acts.ts); a hydrated one should answer it.
      const hydrated = await tapped.evaluate((element) => element.isConnected);
      throw new Error(`${hydrated ? 'the tapped button was hydrated' : 'the app rendered the card again instead of hydrating it'}: ${String(error)}`);
    }
    expect(await like.getAttribute('data-early-tap')).toBeNull();
    // Shown at once, sent meanwhile: counted once by the server.
    await expect.poll(async () => (await callApi(app, api.postDetail, { post_id: post.id })).like_count).toBe(post.like_count + 1);
    expect(likes).toHaveLength(1);
  });

  it('更多 tapped as soon as it shows opens its menu once the app is up', async () => {
    const page = browser.page;
    const slow = await openBeforeStart(page, '/home');
    await page.locator('main article').nth(2).getByRole('button', { name: '更多' }).click();
    await slow.start();
    const menu = page.getByRole('dialog', { name: '选择操作' });
    await menu.getByRole('button', { name: '分享' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  });

  it('a tab tapped as soon as it shows is the one shown once the app is up', async () => {
    const page = browser.page;
    const author = (await callApi(app, api.channelPosts, { tab: 'all', size: 1 })).list[0]!.user;
    const slow = await openBeforeStart(page, `/usercenter/${author.uid}`);
    const channels = page.getByRole('tab', { name: '频道' });
    await channels.click();
    expect(await channels.getAttribute('data-early-tap')).toBe('');
    await slow.start();
    await expect.poll(() => channels.getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tab', { name: '动态' }).getAttribute('aria-selected')).toBe('false');
  });

  it('a poll chosen as soon as it shows stays chosen, and 投票 sends it', async () => {
    const page = browser.page;
    const slow = await openBeforeStart(page, '/home');
    const poll = page.locator('main form.vote').first();
    const choice = poll.locator('.vote__option').first();
    await choice.click();
    const chosen = await choice.locator('input').getAttribute('value');
    await slow.start();
    const send = poll.getByRole('button', { name: '投票' });
    await expect.poll(() => send.isEnabled()).toBe(true);
    expect(await page.locator(`main input[value="${chosen}"]`).first().isChecked()).toBe(true);
    await send.click();
    await page.getByRole('list', { name: '投票结果' }).first().waitFor();
  });
});

describe('before the app has started, on a PC, 1280 px, the comment box', () => {
  const browser = useBrowser(() => app, { viewport: { width: 1280, height: 800 }, blockServiceWorkers: true, logInAs: '15835100003' });

  it('keeps words typed as soon as it shows: they stay, and 发送 sends them', async () => {
    const page = browser.page;
    const post = (await callApi(app, api.channelPosts, { tab: 'all', size: 10 })).list[3]!;
    const slow = await openBeforeStart(page, `/message/detail/${post.id}`);
    const box = page.getByPlaceholder('写评论…');
    await box.click();
    await page.keyboard.type('早到的评论');
    await slow.start();
    const send = page.getByRole('button', { name: '发送', exact: true });
    await expect.poll(() => send.isEnabled()).toBe(true);
    expect(await box.inputValue()).toBe('早到的评论');
    await send.click();
    await page.locator('.comment-item', { hasText: '早到的评论' }).first().waitFor();
    expect(await box.inputValue()).toBe('');
    const comments = (await callApi(app, api.commentList, { post_id: post.id, size: 20 })).list.filter((comment) => comment.content === '早到的评论');
    expect(comments).toHaveLength(1);
  });
});
