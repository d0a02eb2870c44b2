/**
 * Work done in later tasks, in turn, a few ms of it per task (as React's own slices), so that many
 * pieces (the texts of a page rendered at once) never make one long task, what Lighthouse's total
 * blocking time counts. A piece's time counts to its end, the part after its awaits too (those
 * run as microtasks of the same task); a piece that waits for something outside (a chunk's load)
 * goes on by itself, and the next starts in a later task.
 */
import { yieldToBrowser } from './yield-to-browser.ts';

export const TURN_SLICE_MS = 5;

const waiting: Array<() => Promise<void>> = [];
let sliceScheduled = false;

export function inTurn<T>(work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    waiting.push(() => work().then(resolve, reject));
    scheduleSlice();
  });
}

function scheduleSlice(): void {
  if (sliceScheduled) return;
  sliceScheduled = true;
  setTimeout(workSlice, 0);
}

async function workSlice(): Promise<void> {
  const started = performance.now();
  while (waiting.length > 0 && performance.now() - started < TURN_SLICE_MS) await Promise.race([waiting.shift()!(), yieldToBrowser()]);
  sliceScheduled = false;
  if (waiting.length > 0) scheduleSlice();
}
