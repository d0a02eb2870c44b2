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

  it('runs both steps once the first render is painted, once, and stops listening', () => {
    const { router, rendered, listeners } = fakeRouter();
    const steps = { rendered: vi.fn(), atLatest: vi.fn() };
    afterFirstScreen(router, steps);
    rendered();
    rendered();
    expect(steps.rendered).not.toHaveBeenCalled();
    vi.runOnlyPendingTimers();
    vi.advanceTimersByTime(1);
    expect(steps.rendered).toHaveBeenCalledTimes(1);
    expect(steps.atLatest).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(0);
    rendered();
    vi.advanceTimersByTime(FIRST_SCREEN_WAIT_MS * 2);
    expect(steps.rendered).toHaveBeenCalledTimes(1);
    expect(steps.atLatest).toHaveBeenCalledTimes(1);
  });

  it('runs atLatest alone when no render comes in time, and rendered only once one does', () => {
    const { router, rendered } = fakeRouter();
    const steps = { rendered: vi.fn(), atLatest: vi.fn() };
    afterFirstScreen(router, steps);
    vi.advanceTimersByTime(FIRST_SCREEN_WAIT_MS - 1);
    expect(steps.atLatest).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(steps.atLatest).toHaveBeenCalledTimes(1);
    // A slow hydration is not taken for a done one: the page is not the app's yet.
    expect(steps.rendered).not.toHaveBeenCalled();
    rendered();
    vi.runOnlyPendingTimers();
    vi.advanceTimersByTime(1);
    expect(steps.rendered).toHaveBeenCalledTimes(1);
    expect(steps.atLatest).toHaveBeenCalledTimes(1);
  });
});
