import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstScreen, FIRST_SCREEN_WAIT_MS } from '../../src/client/app/start/after-first-screen.ts';

/** A router that only tells when it has rendered. */
function fakeRouter() {
  const listeners = new Set<() => void>();
  const router = {
    subscribe: vi.fn((_event: string, listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }),
  };
  return { router: router as unknown as Parameters<typeof afterFirstScreen>[0], rendered: () => listeners.forEach((listener) => listener()), listeners };
}

describe('afterFirstScreen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs once the first render is painted, once, and stops listening', () => {
    const { router, rendered, listeners } = fakeRouter();
    const run = vi.fn();
    afterFirstScreen(router, run);
    rendered();
    expect(run).not.toHaveBeenCalled();
    vi.runOnlyPendingTimers();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(0);
    rendered();
    vi.advanceTimersByTime(FIRST_SCREEN_WAIT_MS * 2);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs anyway when no render comes in time', () => {
    const { router, listeners } = fakeRouter();
    const run = vi.fn();
    afterFirstScreen(router, run);
    vi.advanceTimersByTime(FIRST_SCREEN_WAIT_MS - 1);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(0);
  });
});
