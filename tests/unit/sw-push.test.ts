// @vitest-environment node
/**
 * The service worker's push handling (sw/push.ts) where a browser cannot be driven: the tap on a
 * notification (no headless browser shows one to tap; tests/e2e/push.test.ts shows it arrive).
 * The worker's globals are stood in for by recording objects: its code is what runs.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pathToOpen, setupPush } from '../../sw/push.ts';

const ORIGIN = 'https://community.example';

describe('pathToOpen', () => {
  it("keeps a path of the app's own, and sends anything else to the notices", () => {
    expect(pathToOpen('/message/detail/5?comment=9', ORIGIN)).toBe('/message/detail/5?comment=9');
    expect(pathToOpen(`${ORIGIN}/usercenter/3`, ORIGIN)).toBe('/usercenter/3');
    expect(pathToOpen('https://elsewhere.example/phish', ORIGIN)).toBe('/notice');
    expect(pathToOpen('//elsewhere.example/x', ORIGIN)).toBe('/notice');
    expect(pathToOpen(undefined, ORIGIN)).toBe('/notice');
  });
});

type Listener = (event: unknown) => void;

/** A worker global with `windows` open, recording what the click does. */
function workerWith(windows: { url: string }[]) {
  const listeners = new Map<string, Listener>();
  const done: string[] = [];
  const clients = windows.map((window) => ({
    url: window.url,
    focus: vi.fn(async function (this: unknown) {
      done.push(`focus ${window.url}`);
      return this;
    }),
    navigate: vi.fn(async (url: string) => done.push(`navigate ${url}`)),
  }));
  vi.stubGlobal('self', {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    clients: {
      matchAll: async () => clients,
      openWindow: async (url: string) => done.push(`open ${url}`),
    },
  });
  setupPush();
  /** Taps a notification carrying `url`; resolves once the worker is done with it. */
  const tap = async (url: unknown) => {
    const waits: Promise<unknown>[] = [];
    listeners.get('notificationclick')!({
      notification: { data: { url }, close: () => done.push('close') },
      waitUntil: (work: Promise<unknown>) => waits.push(work),
    });
    await Promise.all(waits);
  };
  return { tap, done };
}

afterEach(() => vi.unstubAllGlobals());

describe('a tap on a pushed notice', () => {
  it("takes the app's open window to its page", async () => {
    const worker = workerWith([{ url: 'https://other.example/' }, { url: `${ORIGIN}/home` }]);
    await worker.tap('/message/detail/5?comment=9');
    expect(worker.done).toEqual(['close', `focus ${ORIGIN}/home`, `navigate ${ORIGIN}/message/detail/5?comment=9`]);
  });

  it('opens a window of the app when none is open', async () => {
    const worker = workerWith([]);
    await worker.tap('https://elsewhere.example/phish');
    expect(worker.done).toEqual(['close', 'open /notice']);
  });
});
