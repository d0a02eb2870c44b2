/** Logging in as a user of the running app: through the UI, with the code the server logs. */
import type { Page } from 'playwright-core';
import type { RunningApp } from './app.ts';

/** Longer than a busy server takes to log a code it was asked for. */
const CODE_TIMEOUT_MS = 60_000;

/** The newest code the server logged for the phone after log offset `after`, waiting for it. */
export async function codeFromLog(app: RunningApp, phone: string, after: number): Promise<string> {
  const pattern = new RegExp(`login code for ${phone}: (\\d{6})`, 'g');
  const deadline = Date.now() + CODE_TIMEOUT_MS;
  for (;;) {
    const last = [...app.logs().slice(after).matchAll(pattern)].at(-1);
    if (last) return last[1]!;
    if (Date.now() > deadline) throw new Error(`no login code for ${phone} in the server log`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens the login popup from the header (or uses the one already open) and logs in. */
export async function logIn(app: RunningApp, page: Page, phone: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: '手机号登录' });
  if (!(await dialog.isVisible())) await page.getByRole('banner').getByRole('button', { name: '登录' }).click();
  await fillLogin(app, page, phone);
}

/** Logs in through the popup that is open now. */
export async function fillLogin(app: RunningApp, page: Page, phone: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: '手机号登录' });
  await dialog.getByPlaceholder('请输入手机号').fill(phone);
  const logLength = app.logs().length;
  await dialog.getByRole('button', { name: '获取验证码' }).click();
  await dialog.getByPlaceholder('6 位验证码').fill(await codeFromLog(app, phone, logLength));
  await dialog.getByRole('button', { name: '登录', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  // The header as a login has it (消息 comes beside 发动态 and moves it): a tap on 发动态 before
  // could land, between the press and the release, on something that moved.
  await page.locator('.app-header__actions, .mobile-bar__actions').getByRole('link', { name: /^消息/ }).first().waitFor();
}
