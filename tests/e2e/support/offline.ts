/** Taking a page's network away as a test of a user's flow does. */
import type { Page } from 'playwright-core';

/**
 * Takes the network away and waits until the app knows it: its 网络异常 banner is in the page.
 * The 网络异常 toast comes with it: a toast shown before would be replaced.
 */
export async function goOffline(page: Page): Promise<void> {
  await page.context().setOffline(true);
  await page.locator('.status-banner--offline').waitFor({ state: 'attached' });
}
