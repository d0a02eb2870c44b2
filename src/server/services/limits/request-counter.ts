/**
 * The counter of the general request limits, requests per client address and per user per
 * minute (applied by http/request-limit-hook.ts): counted in the database's windows
 * (window-counters.ts) so that every API process shares them, and answered -2005 请求频繁 beyond them.
 *
 * Counting every request with its own upsert would put a write (and, on PostgreSQL, a lock on
 * one hot row per address) in front of every read. So each process counts in memory and adds
 * its hits to the shared window once a second, while a key is far from its limit; from half
 * the limit on, every hit is added at once and the answer is the database's count. A process
 * alone is exact; N processes may together let through up to the hits each allowed in its last
 * second below half the limit, which is well within what a limit of this kind is for.
 */
import type { Db } from '../../db/client.ts';
import { addToWindow } from './window-counters.ts';

interface Slot {
  /** The window's count as the database last answered it (hits of every process). */
  known: number;
  /** Hits of this process not yet added. */
  pending: number;
  /** When the window ends, by this process's clock. */
  endsAt: number;
}

export class SharedWindowCounter {
  private readonly slots = new Map<string, Slot>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly windowSeconds: number,
    private readonly flushEveryMs = 1000,
  ) {}

  /** Counts one hit on `key`; false beyond `max` in the current window. */
  async hit(key: string, max: number): Promise<boolean> {
    let slot = this.slots.get(key);
    if (slot && Date.now() >= slot.endsAt) {
      // Hits not yet added belonged to the window that ended: they no longer count.
      this.slots.delete(key);
      slot = undefined;
    }
    if (slot && !this.closed && slot.known + slot.pending + 1 <= Math.floor(max / 2)) {
      slot.pending++;
      this.schedule();
      return true;
    }
    const amount = 1 + (slot?.pending ?? 0);
    if (slot) slot.pending = 0;
    const { count, remainingMs } = await addToWindow(this.db, key, this.windowSeconds, amount);
    this.record(key, count, remainingMs);
    return count <= max;
  }

  /** Milliseconds until the window of `key` ends, as this process last heard; a full window if unknown. */
  remainingMs(key: string): number {
    const slot = this.slots.get(key);
    return slot ? Math.max(0, slot.endsAt - Date.now()) : this.windowSeconds * 1000;
  }

  /** Adds every pending hit now. */
  async flush(): Promise<void> {
    this.timer = undefined;
    const now = Date.now();
    const batch: [string, number][] = [];
    for (const [key, slot] of this.slots) {
      if (now >= slot.endsAt) this.slots.delete(key);
      else if (slot.pending > 0) {
        batch.push([key, slot.pending]);
        slot.pending = 0;
      }
    }
    for (const [key, amount] of batch) {
      try {
        const { count, remainingMs } = await addToWindow(this.db, key, this.windowSeconds, amount);
        this.record(key, count, remainingMs);
      } catch {
        // The database is away for a moment: these hits are lost, the limit is not.
      }
    }
  }

  /** Adds what is pending and stops the timer (the app is closing; the database still open). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.flushing;
    await this.flush();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.flushing = this.flush().finally(() => (this.flushing = undefined));
    }, this.flushEveryMs);
    this.timer.unref();
  }

  private record(key: string, count: number, remainingMs: number): void {
    const endsAt = Date.now() + remainingMs;
    const slot = this.slots.get(key);
    // Answers of one window may arrive out of order: the highest count is the newest.
    if (slot && Math.abs(slot.endsAt - endsAt) < 1000) slot.known = Math.max(slot.known, count);
    else this.slots.set(key, { known: count, pending: slot?.pending ?? 0, endsAt });
  }
}
