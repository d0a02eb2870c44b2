/**
 * The tracking client: events with SPEC section 3's user properties, batched to the collector,
 * kept offline and across visits, sent by beacon as the page goes. The network is the test's
 * recording fetch and sendBeacon (jsdom has neither); the e2e test sends to the real collector.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BATCH_DELAY_MS,
  BATCH_MAX,
  flush,
  record,
  resetTrackingClient,
  RETRY_MAX_MS,
  userProperties,
} from '../../src/client/platform/tracking-client.ts';
import { sendKeptEvents, setTrackingUser, track, TRACKING_OUTBOX_KEY } from '../../src/client/platform/tracking.ts';
import { useLayoutStore } from '../../src/client/platform/layout-store.ts';

interface Batch {
  app_id: string;
  log_store: string;
  events: { event: string; properties: Record<string, unknown>; time: number }[];
}

let answer: () => Response | Promise<Response>;
const sent: { url: string; batch: Batch; keepalive: boolean | undefined }[] = [];
const beacons: { url: string; batch: Batch }[] = [];
const ok = () => new Response(JSON.stringify({ code: 0, data: { accepted: 1 } }));
const refused = (code: number) => new Response(JSON.stringify({ code: -1, error: { code, msg: 'x' } }));
const outbox = () => JSON.parse(localStorage.getItem(TRACKING_OUTBOX_KEY) ?? '[]') as unknown[];
const user = { is_login: true, uid: 42 };
const setOnline = (online: boolean) => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  sent.length = 0;
  beacons.length = 0;
  answer = ok;
  localStorage.clear();
  resetTrackingClient();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, batch: JSON.parse(String(init.body)) as Batch, keepalive: init.keepalive });
      return answer();
    }),
  );
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, body: string) => {
      beacons.push({ url, batch: JSON.parse(body) as Batch });
      return true;
    },
  });
  window.history.replaceState(null, '', '/usercenter/7?utm_identify=u-1&share_code=s-2&tab=1');
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  useLayoutStore.setState({ isMobile: true });
});

describe('user properties', () => {
  it('are those of SPEC section 3, from the address, the session and the layout', () => {
    expect(userProperties(user, '?utm_identify=u-1&share_code=s-2', true)).toEqual({
      utm_identify: 'u-1',
      share_code: 's-2',
      is_login: true,
      uid: 42,
      report_source: 'H5',
      horde_product: '极客时间社区',
    });
    expect(userProperties({ is_login: false, uid: 0 }, '', false)).toMatchObject({
      utm_identify: '',
      share_code: '',
      is_login: false,
      uid: 0,
      report_source: 'Web',
    });
  });
});

describe('batches', () => {
  it('waits BATCH_DELAY_MS after the first event, then sends them together with app id and log store', async () => {
    record('personal_home_page_view', { page_name: '个人主页' }, user, 1000);
    record('personal_home_click_button', { button_name: '关注' }, user, 1001);
    await vi.advanceTimersByTimeAsync(BATCH_DELAY_MS - 1);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/serv/collect');
    expect(sent[0]!.batch).toEqual({
      app_id: 'community-feed',
      log_store: 'community-feed-test',
      events: [
        {
          event: 'personal_home_page_view',
          properties: expect.objectContaining({ page_name: '个人主页', uid: 42, utm_identify: 'u-1', report_source: 'H5' }),
          time: 1000,
        },
        { event: 'personal_home_click_button', properties: expect.objectContaining({ button_name: '关注' }), time: 1001 },
      ],
    });
    await vi.waitFor(() => expect(outbox()).toEqual([]));
  });

  it('sends at once when BATCH_MAX wait', async () => {
    for (let i = 0; i < BATCH_MAX; i += 1) record('personal_home_click_button', { button_name: `b${i}` }, user, i);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.batch.events).toHaveLength(BATCH_MAX);
  });

  it('tags events made on a PC layout Web', async () => {
    useLayoutStore.setState({ isMobile: false });
    record('click_resource_position', { position_type: 'sidebar', position_name: '精华', position_num: 3, page_title: 'x' }, user, 5);
    await vi.advanceTimersByTimeAsync(BATCH_DELAY_MS);
    expect(sent[0]!.batch.events[0]!.properties).toMatchObject({ report_source: 'Web', position_name: '精华', position_num: 3 });
  });
});

describe('events that cannot go now', () => {
  it('are kept offline and sent once the network is back', async () => {
    const online = setOnline(false);
    record('personal_home_page_view', { page_name: '个人主页' }, user, 1);
    await vi.advanceTimersByTimeAsync(BATCH_DELAY_MS);
    expect(sent).toHaveLength(0);
    expect(outbox()).toHaveLength(1);
    // Going away offline: no beacon either (it would be lost), the outbox stays for later.
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toHaveLength(0);
    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await vi.waitFor(() => expect(outbox()).toEqual([]));
  });

  it('are kept when the network fails or the collector says 请求频繁, and dropped when it refuses them for good', async () => {
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    record('personal_home_page_view', { page_name: '个人主页' }, user, 1);
    await flush();
    expect(outbox()).toHaveLength(1);
    answer = () => refused(-2005);
    await flush();
    expect(outbox()).toHaveLength(1);
    answer = () => refused(-1004);
    await flush();
    expect(outbox()).toEqual([]);
    expect(sent).toHaveLength(3);
  });

  it('are tried again, ever more slowly, when a send fails while online, and sent once the network carries them', async () => {
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    record('personal_home_page_view', { page_name: '个人主页' }, user, 1);
    // The batch's send, then tries after 2, 4, 8, ... s, at most RETRY_MAX_MS apart.
    const sendsAt: number[] = [];
    for (let elapsed = 0; elapsed <= BATCH_DELAY_MS + 2_000 + 4_000 + 8_000; elapsed += 1_000) {
      await vi.advanceTimersByTimeAsync(1_000);
      if (sent.length > sendsAt.length) sendsAt.push(elapsed + 1_000);
    }
    expect(sendsAt).toEqual([BATCH_DELAY_MS, BATCH_DELAY_MS + 2_000, BATCH_DELAY_MS + 6_000, BATCH_DELAY_MS + 14_000]);
    expect(outbox()).toHaveLength(1);
    for (let i = 0; i < 10; i += 1) await vi.advanceTimersByTimeAsync(RETRY_MAX_MS);
    const tries = sent.length;
    await vi.advanceTimersByTimeAsync(RETRY_MAX_MS);
    expect(sent).toHaveLength(tries + 1);
    answer = ok;
    await vi.advanceTimersByTimeAsync(RETRY_MAX_MS);
    await vi.waitFor(() => expect(outbox()).toEqual([]));
    // Sent: nothing more is tried.
    await vi.advanceTimersByTimeAsync(RETRY_MAX_MS * 2);
    expect(sent).toHaveLength(tries + 2);
  });

  it('are not tried again offline: the online event sends them', async () => {
    const online = setOnline(true);
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    record('personal_home_page_view', { page_name: '个人主页' }, user, 1);
    await vi.advanceTimersByTimeAsync(BATCH_DELAY_MS);
    expect(sent).toHaveLength(1);
    online.mockReturnValue(false);
    for (let i = 0; i < 5; i += 1) await vi.advanceTimersByTimeAsync(RETRY_MAX_MS);
    expect(sent).toHaveLength(1);
    expect(outbox()).toHaveLength(1);
    answer = ok;
    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(outbox()).toEqual([]));
    expect(sent).toHaveLength(2);
  });

  it('an earlier visit kept are sent at the next start', async () => {
    localStorage.setItem(
      TRACKING_OUTBOX_KEY,
      JSON.stringify([{ id: 'a', event: 'personal_home_page_view', properties: { page_name: '个人主页', uid: 0 }, time: 7 }]),
    );
    sendKeptEvents();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.batch.events).toEqual([{ event: 'personal_home_page_view', properties: { page_name: '个人主页', uid: 0 }, time: 7 }]);
    await vi.waitFor(() => expect(outbox()).toEqual([]));
  });
});

describe('as the page goes', () => {
  it('sends what waits by sendBeacon (JSON text the collector reads), in batches, and forgets it', async () => {
    for (let i = 0; i < BATCH_MAX + 3; i += 1) {
      localStorage.setItem(
        TRACKING_OUTBOX_KEY,
        JSON.stringify([...outbox(), { id: `e${i}`, event: 'personal_home_click_button', properties: { button_name: `b${i}` }, time: i }]),
      );
    }
    record('personal_home_page_view', { page_name: '个人主页' }, user, 99);
    // record() sent a full batch at once: the beacon takes the rest, not those in flight.
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    delete (document as { visibilityState?: unknown }).visibilityState;
    expect(beacons.map((b) => b.batch.events.length)).toEqual([4]);
    expect(beacons[0]!.url).toBe('/serv/collect');
    expect(beacons[0]!.batch.log_store).toBe('community-feed-test');
    await vi.waitFor(() => expect(outbox()).toEqual([]));
    // The batch in flight outlives the page as the beacon does, or it would be lost with it.
    expect(sent.map((s) => s.keepalive)).toEqual([true]);
    const all = [...sent, ...beacons].flatMap((b) => b.batch.events.map((e) => e.time));
    expect(all.sort((a, b) => a - b)).toEqual([...Array.from({ length: BATCH_MAX + 3 }, (_, i) => i), 99]);
  });
});

describe('track()', () => {
  it('takes the user of the moment and hands the event to the client', async () => {
    setTrackingUser(() => ({ is_login: false, uid: 0 }));
    track('personal_home_page_view', { page_name: '个人主页' });
    setTrackingUser(() => user);
    await vi.waitFor(() => expect(outbox()).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(BATCH_DELAY_MS);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.batch.events[0]!.properties).toMatchObject({ is_login: false, uid: 0, page_name: '个人主页' });
  });
});
