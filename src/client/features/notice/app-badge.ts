/**
 * The installed app's icon shows the unread count (the Badging API), cleared at 0. Browsers
 * without it, or that refuse (not installed), are left as they are.
 */
export function showAppBadge(count: number): void {
  const badging = navigator as Navigator & { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
  const done = count > 0 ? badging.setAppBadge?.(count) : badging.clearAppBadge?.();
  done?.catch(() => undefined);
}
