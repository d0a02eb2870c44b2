/** Logging in as a user of the running app: through the UI or the API, with the code the server logs. */
import type { Page } from 'playwright-core';
import { api } from '../../../src/shared/api.ts';
import { TICKET_COOKIE } from '../../../src/shared/endpoints.ts';
import type { Envelope } from '../../../src/shared/envelope.ts';
import { callApi, type RunningApp } from './app.ts';

/** The newest code the server logged for the phone after log offset `after`, waiting for it. */
export async function codeFromLog(app: RunningApp, phone: string, after: number): Promise<string> {
  const pattern = new RegExp(`login code for ${phone}: (\\d{6})`, 'g');
  for (let i = 0; i < 100; i++) {
    const last = [...app.logs().slice(after).matchAll(pattern)].at(-1);
    if (last) return last[1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no login code for ${phone} in the server log`);
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
}

/** Logs in through the API (as a PC); returns the ticket cookie (`GCESS=...`) for callAs. */
export async function logInByApi(app: RunningApp, phone: string): Promise<string> {
  const offset = app.logs().length;
  await callApi(app, api.loginCode, { cellphone: phone });
  const code = await codeFromLog(app, phone, offset);
  const response = await fetch(`${app.url}${api.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cellphone: phone, code, device_kind: 'pc' }),
  });
  const envelope = (await response.json()) as Envelope<unknown>;
  if (envelope.code !== 0) throw new Error(`login answered ${JSON.stringify(envelope)}`);
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0]!)
    .find((pair) => pair.startsWith(`${TICKET_COOKIE}=`));
  if (!cookie) throw new Error('login set no ticket cookie');
  return cookie;
}

/** Calls an API path as the user of `cookie`; fails on an error envelope. */
export async function callAs<T>(app: RunningApp, cookie: string, path: string, input: unknown): Promise<T> {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(input),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${path} answered ${JSON.stringify(envelope)}`);
  return envelope.data;
}
