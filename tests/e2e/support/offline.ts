/** Taking a page's network away as a test of a user's flow does. */
import type { Page } from 'playwright-core';

/**
 * Takes the network away and waits until the app knows it: its 网络异常 banner is in the page.
 * The banner moves what is under it down as it comes, and the 网络异常 toast comes with it: a tap
 * made before could land between the press and the release on something that moved (nothing
 * happens), and a toast shown before would be replaced.
 */
export async function goOffline(page: Page): Promise<void> {
  await page.context().setOffline(true);
  await page.locator('.status-banner--offline').waitFor({ state: 'attached' });
}
