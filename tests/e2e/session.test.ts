/**
 * Accounts in the real app: log in with the code the server logs, stay logged in
 * across a reload, get the 下线通知 dialog when the same account logs in on another device of
 * the same kind, and log out. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { callApi } from './support/app.ts';
import { openBrowser, useApp, type OpenedBrowser } from './support/fixtures.ts';
import { logIn as logInAs } from './support/session.ts';

const PHONE = '13800000000';
const PC = { width: 1280, height: 860 };
const MOBILE = { width: 375, height: 740 };

const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });
const browsers: OpenedBrowser[] = [];

afterAll(async () => {
  for (const browser of browsers) await browser.close();
});

async function open(viewport = PC): Promise<Page> {
  const browser = await openBrowser(app, { viewport });
  browsers.push(browser);
  return browser.page;
}

async function demoUserNick(): Promise<string> {
  return (await callApi(app, api.userInfo, { data_mode: 0, visit_user_id: 1 })).nick;
}

function logIn(page: Page, phone = PHONE): Promise<void> {
  return logInAs(app, page, phone);
}

describe('login, reload, login elsewhere, logout', () => {
  let nick: string;
  let first: Page;
  let second: Page;

  beforeAll(async () => {
    nick = await demoUserNick();
  });

  it('shows 登录 in the header while logged out, in both layouts', async () => {
    const mobile = await open(MOBILE);
    await mobile.goto(`${app.url}/home`);
    await mobile.getByRole('banner').getByRole('button', { name: '登录' }).waitFor();
    first = await open(PC);
    await first.goto(`${app.url}/home`);
    await first.getByRole('banner').getByRole('button', { name: '登录' }).waitFor();
  });

  it('explains a wrong code inside the popup and keeps what was typed', async () => {
    await first.getByRole('banner').getByRole('button', { name: '登录' }).click();
    const dialog = first.getByRole('dialog', { name: '手机号登录' });
    await dialog.getByPlaceholder('请输入手机号').fill('12345');
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => dialog.locator('form').getByRole('alert').textContent()).toContain('请输入正确的手机号');
    expect(await dialog.getByPlaceholder('请输入手机号').inputValue()).toBe('12345');
    await first.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('logs in with the code from the server log and shows the avatar and nick', async () => {
    await logIn(first);
    await first.getByRole('banner').getByText(nick).waitFor();
    expect(await first.getByRole('banner').getByRole('button', { name: '登录' }).count()).toBe(0);
  });

  it('stays logged in after a reload', async () => {
    await first.reload();
    await first.getByRole('banner').getByText(nick).waitFor();
  });

  it('shows 下线通知 on the first device once the account logs in on a second device of the same kind', async () => {
    second = await open(PC);
    await second.goto(`${app.url}/home`);
    await logIn(second);
    await second.getByRole('banner').getByText(nick).waitFor();

    await first.reload();
    const notice = first.getByRole('alertdialog', { name: '下线通知' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('密码可能已经泄露');
    await first.getByRole('banner').getByRole('button', { name: '登录' }).waitFor();
    await notice.getByRole('button', { name: '确定' }).click();
    await first.getByRole('dialog', { name: '手机号登录' }).waitFor();
  });

  it('follows and unfollows a channel, which the 关注 feed then reflects', async () => {
    await second.goto(`${app.url}/channel/list/3`);
    const name = await second.getByRole('heading', { level: 1 }).textContent();
    // The button is enabled once the page knows who is looking and what they follow.
    const header = second.getByRole('region', { name: name!, exact: true });
    const settled = header.locator('button[aria-pressed]:not([disabled])');
    const follow = header.getByRole('button', { name: '关注', exact: true });
    const followed = header.getByRole('button', { name: '已关注' });
    await settled.waitFor();
    if ((await settled.getAttribute('aria-pressed')) === 'true') await followed.click();
    await follow.click();
    await followed.waitFor();
    await second.reload();
    // The persisted cache may show the list from before the follow until its refetch answers.
    await expect.poll(() => settled.textContent()).toBe('已关注');
    // The sidebar's 关注 item lists the user's channels.
    await second.goto(`${app.url}/follow`);
    await second.getByRole('navigation').getByRole('link', { name: name! }).waitFor();
    await second.goto(`${app.url}/channel/list/3`);
    // Watched from before the tap: the toast says the unfollow reached the server, and it lasts
    // seconds. A toast closes any open menu, so the next test starts after it.
    const unfollowed = second.locator('.toast', { hasText: `已取消关注「${name}」` }).waitFor({ timeout: 120_000 });
    await followed.click();
    await follow.waitFor();
    await unfollowed;
  });

  it('logs out on the second device', async () => {
    // Any toast closes an open menu (one layer at a time): opening it and choosing 退出登录 is one
    // retried step, done once the header shows 登录.
    const logOut = second.getByRole('button', { name: '退出登录' });
    const logIn = second.getByRole('banner').getByRole('button', { name: '登录' });
    await expect
      .poll(async () => {
        if (await logIn.isVisible()) return true;
        if (!(await logOut.isVisible())) await second.getByRole('banner').getByRole('button', { name: new RegExp(nick) }).click({ timeout: 5000 });
        await logOut.click({ timeout: 3000 }).catch(() => undefined);
        return logIn.waitFor({ timeout: 3000 }).then(() => true, () => false);
      }, { message: 'the account menu never logged out' })
      .toBe(true);
    await second.reload();
    await second.getByRole('banner').getByRole('button', { name: '登录' }).waitFor();
  });
});
