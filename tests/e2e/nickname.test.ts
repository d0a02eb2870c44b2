/**
 * A new user's nickname, through the UI, at 375 and 1280 px: the login's answer carries no
 * ticket the page could read (the httpOnly cookie alone), the default nickname says nothing of
 * the phone number, and 修改昵称 on one's own user centre sets a new one: a refusal (too short,
 * another user's) is told as a toast and changes nothing; a new one shows at once in the
 * profile and the header, and again after a reload. Needs `npm run build` first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { callApi } from './support/app.ts';
import { useApp, useBrowser } from './support/fixtures.ts';
import { logIn } from './support/session.ts';

const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });

async function toast(page: Page, text: string): Promise<void> {
  await page.locator('.toast', { hasText: text }).first().waitFor();
}

describe.each([
  { name: 'a phone, 375 px', viewport: { width: 375, height: 740 }, phone: '15834100001', nick: '手机上改的名字' },
  { name: 'a PC, 1280 px', viewport: { width: 1280, height: 860 }, phone: '15834100002', nick: 'PC 上改的名字' },
])('the nickname on $name', ({ viewport, phone, nick }) => {
  const browser = useBrowser(() => app, { viewport, at: '/home' });

  it('logs in without the ticket in the JSON, with a default nickname that says nothing of the phone', async () => {
    const page = browser.page;
    const answered = page.waitForResponse((response) => response.url().endsWith(api.login.path));
    await logIn(app, page, phone);
    const login = (await (await answered).json()) as { code: number; data: Record<string, unknown> };
    expect(login.code).toBe(0);
    expect(login.data).not.toHaveProperty('ticket');
    // The cookie is httpOnly: no script of the page reads it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('GCESS');
    const menu = page.getByRole('banner').getByRole('button', { name: /^账号菜单：/ });
    const label = (await menu.getAttribute('aria-label'))!;
    expect(label).toMatch(/^账号菜单：极客[a-z0-9]{6}$/);
    expect(label).not.toContain(phone.slice(-4));
  });

  it('sets a nickname from the user centre, a refusal told as a toast', async () => {
    const page = browser.page;
    await page.getByRole('banner').getByRole('button', { name: /^账号菜单：/ }).click();
    await page.getByRole('button', { name: '我的主页' }).click();
    const heading = page.locator('.profile__nick');
    const before = (await heading.textContent())!;
    expect(before).toMatch(/^极客[a-z0-9]{6}$/);

    await page.getByRole('button', { name: '修改昵称' }).click();
    const field = page.getByLabel('新昵称', { exact: true });
    expect(await field.inputValue()).toBe(before);

    // Too short: the server's words, as a toast; nothing changes.
    await field.fill('a');
    await page.getByRole('button', { name: '保存' }).click();
    await toast(page, '昵称至少 2 个字符');
    // Another user's (the demo user's), whatever its case: taken.
    const demo = (await callApi(app, api.userInfo, { data_mode: 0, visit_user_id: 1 })).nick;
    await field.fill(demo);
    await page.getByRole('button', { name: '保存' }).click();
    await toast(page, '该昵称已被使用');
    expect(await heading.textContent()).toBe(before);

    await field.fill(`  ${nick}  `);
    await expect.poll(() => page.locator('.nick-form__count').textContent()).toMatch(/^\d+\/20$/);
    await page.getByRole('button', { name: '保存' }).click();
    await toast(page, '昵称已修改');
    await expect.poll(() => heading.textContent()).toBe(nick);
    expect(await page.getByLabel('新昵称', { exact: true }).count()).toBe(0);

    await page.reload();
    await expect.poll(() => page.locator('.profile__nick').textContent()).toBe(nick);
    // The header's account menu (a phone's is on the feeds' bar) says the new one too.
    await page.goBack();
    await expect.poll(() => page.getByRole('banner').getByRole('button', { name: /^账号菜单：/ }).getAttribute('aria-label')).toBe(`账号菜单：${nick}`);
  });
});
