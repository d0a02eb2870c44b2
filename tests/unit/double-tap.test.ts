import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { suppressDoubleTap } from '../../src/client/ui/double-tap.ts';

/** Dispatches a cancelable touchend on `target`; returns whether it was cancelled. */
const touchEnd = (target: EventTarget) => !target.dispatchEvent(new Event('touchend', { bubbles: true, cancelable: true }));

describe('double tap', () => {
  let uninstall: () => void;
  beforeEach(() => {
    vi.useFakeTimers();
    uninstall = suppressDoubleTap(document);
  });
  afterEach(() => {
    uninstall();
    document.body.replaceChildren();
    vi.useRealTimers();
  });

  it('suppresses a second tap within 300 ms, not a later one', () => {
    const button = document.body.appendChild(document.createElement('button'));
    expect(touchEnd(button)).toBe(false);
    vi.advanceTimersByTime(299);
    expect(touchEnd(button)).toBe(true);
    vi.advanceTimersByTime(300);
    expect(touchEnd(button)).toBe(false);
  });

  it('lets a tap on another control count, however soon: a poll’s option, then 投票', () => {
    const option = document.body.appendChild(document.createElement('label'));
    const radio = option.appendChild(document.createElement('span'));
    const submit = document.body.appendChild(document.createElement('button'));
    expect(touchEnd(radio)).toBe(false);
    vi.advanceTimersByTime(120);
    expect(touchEnd(submit)).toBe(false);
    vi.advanceTimersByTime(120);
    // The same control twice is a double tap, wherever inside it the finger lands.
    expect(touchEnd(submit.appendChild(document.createElement('span')))).toBe(true);
  });

  it('leaves the double tap of text fields alone', () => {
    const input = document.body.appendChild(document.createElement('input'));
    expect(touchEnd(input)).toBe(false);
    vi.advanceTimersByTime(100);
    expect(touchEnd(input)).toBe(false);
  });

  it('stops when uninstalled', () => {
    uninstall();
    touchEnd(document.body);
    expect(touchEnd(document.body)).toBe(false);
  });
});
