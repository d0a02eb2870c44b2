/**
 * Push on a phone, as a user turns it on and as a notice arrives with the app in the background:
 * logged in through the UI, 消息设置 offers 推送通知, and its tap asks the browser (here: the
 * permission granted, the subscription refused, as a browser with no push service does) and says
 * why it stays off; a push the server sends (delivered to the service worker by the DevTools
 * protocol, as the push service would) is shown as a notification saying who did what, with the
 * post a tap opens (the tap itself: sw-push.test.ts, as no headless browser shows one to tap).
 * Needs `npm run build` first.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE_USER_AGENT } from './support/browser.ts';
import { useApp, withBrowser } from './support/fixtures.ts';
import { logIn } from './support/session.ts';

const app = useApp({ env: { LOGIN_CODE_RESEND_SECONDS: '1' } });
const PHONE = '13900000741';

interface ShownNotification {
  title: string;
  body: string;
  url: string;
}

const shownNotifications = (page: Page): Promise<ShownNotification[]> =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, url: (n.data as { url: string }).url }));
  });

describe('push', () => {
  it('offers 推送通知 in 消息设置, says why it stays off, and shows a pushed notice', { timeout: 180_000 }, async () => {
    await withBrowser(app, { viewport: { width: 375, height: 812 }, userAgent: PHONE_USER_AGENT, hasTouch: true, at: '/home' }, async ({ page, context }) => {
      await context.grantPermissions(['notifications'], { origin: app.url });
      await logIn(app, page, PHONE);
      await page.getByRole('button', { name: /^账号菜单/ }).click();
      await page.getByRole('button', { name: '我的主页' }).click();
      await page.getByRole('tab', { name: '消息设置' }).click();
      const pushSwitch = page.getByRole('switch', { name: /推送通知/ });
      await expect.poll(() => pushSwitch.isEnabled()).toBe(true);
      await pushSwitch.click();
      // No push service answers a headless browser: the app stops waiting and says so.
      await page.getByText('推送通知开启失败，请稍后重试').waitFor({ timeout: 60_000 });
      await expect.poll(() => pushSwitch.isEnabled()).toBe(true);
      expect(await pushSwitch.isChecked()).toBe(false);

      const devtools = await context.newCDPSession(page);
      const registered = new Promise<string>((found) =>
        devtools.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const ours = registrations.find((registration) => registration.scopeURL.startsWith(app.url) && !registration.isDeleted);
          if (ours) found(ours.registrationId);
        }),
      );
      await devtools.send('ServiceWorker.enable');
      const pushed = { title: '码农老王 评论了你的动态', body: '写得真好', url: '/message/detail/5?comment=9', tag: 'notice-77' };
      await devtools.send('ServiceWorker.deliverPushMessage', { origin: new URL(app.url).origin, registrationId: await registered, data: JSON.stringify(pushed) });
      await expect.poll(() => shownNotifications(page)).toEqual([{ title: pushed.title, body: pushed.body, url: pushed.url }]);
    });
  });
});
