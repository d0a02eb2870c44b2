/**
 * Ends the current task and goes on in a new one, so the browser can handle a tap and paint in
 * between: the app's start is cut into pieces this way, none of them a long task (what
 * Lighthouse's total blocking time counts). scheduler.yield where the browser has it (the rest
 * goes on ahead of other tasks), else a task of its own.
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
