/**
 * The tracking client (loaded with the first event, see tracking.ts). Events get the user
 * properties (utm_identify, share_code, is_login, uid, report_source Web or H5, horde_product),
 * wait in an outbox kept in localStorage (synchronous: it survives the page going away) and go to
 * the collector in batches: BATCH_DELAY_MS after the first of a batch, at once when BATCH_MAX wait,
 * by navigator.sendBeacon when the page is hidden or goes. Offline, or when the collector cannot
 * take them now, they stay and go once the network is back.
 */
import { endpoints } from '#shared/endpoints.ts';
import { ErrorCode } from '#shared/errors.ts';
import { isApiError, request } from '../lib/http.ts';
import { useLayoutStore } from './layout-store.ts';
import { clientConfig, COMMUNITY_NAME } from './runtime-config.ts';
import { TRACKING_OUTBOX_KEY, type TrackedEventName, type TrackedEvents, type TrackingUser } from './tracking.ts';

export const BATCH_DELAY_MS = 2_000;
export const BATCH_MAX = 20;
/**
 * A send that failed for now while the browser says it is online is tried again after
 * BATCH_DELAY_MS, then twice as long each time, up to this. The online event often comes before
 * the network carries anything (a phone between networks), and a send already on its way when it
 * came fails after it: nothing else would send those events before the next event or visit.
 */
export const RETRY_MAX_MS = 60_000;
/** The oldest events go first when an outbox outgrows this (a long time offline). */
export const OUTBOX_MAX = 500;
/** Our product in the provider's analytics: the `{product}_product` user property. */
export const TRACKING_PRODUCT = 'horde'; // horde: src/client/README.md ('horde')

type Property = string | number | boolean | null;

export interface OutboxEvent {
  /** This page's own name for the event (never sent): what was sent leaves the outbox by it. */
  id: string;
  event: TrackedEventName;
  properties: Record<string, Property>;
  time: number;
}

/** The user properties of an event made now, on this page. */
export function userProperties(user: TrackingUser, search: string, isMobile: boolean): Record<string, Property> {
  const params = new URLSearchParams(search);
  return {
    utm_identify: params.get('utm_identify') ?? '',
    share_code: params.get('share_code') ?? '',
    is_login: user.is_login,
    uid: user.uid,
    report_source: isMobile ? 'H5' : 'Web',
    [`${TRACKING_PRODUCT}_product`]: COMMUNITY_NAME,
  };
}

function readOutbox(): OutboxEvent[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(TRACKING_OUTBOX_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as OutboxEvent[]) : [];
  } catch {
    return [];
  }
}

function writeOutbox(events: OutboxEvent[]): void {
  try {
    if (events.length === 0) localStorage.removeItem(TRACKING_OUTBOX_KEY);
    else localStorage.setItem(TRACKING_OUTBOX_KEY, JSON.stringify(events.slice(-OUTBOX_MAX)));
  } catch {
    // Storage full or forbidden: the events live in this page only.
  }
}

/** Events sent and not yet answered: another flush must not send them twice. */
let inFlight = new Set<string>();
let timer: ReturnType<typeof setTimeout> | undefined;
let retryDelay = BATCH_DELAY_MS;
let listening = false;

const keyOf = (event: OutboxEvent) => event.id;

function batchBody(events: OutboxEvent[]) {
  return {
    app_id: clientConfig.analyticsAppId,
    log_store: clientConfig.analyticsLogStore,
    events: events.map(({ event, properties, time }) => ({ event, properties, time })),
  };
}

function remove(sent: OutboxEvent[]): void {
  const keys = new Set(sent.map(keyOf));
  writeOutbox(readOutbox().filter((event) => !keys.has(keyOf(event))));
}

/** Whether a refusal is for now only (try again later) rather than for good. */
function isTemporary(error: unknown): boolean {
  return !isApiError(error) || error.kind !== 'business' || error.code === ErrorCode.TooFrequent;
}

/** Sends every waiting event, a batch at a time; what fails for now stays for the next try. */
export async function flush(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  listen();
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  for (;;) {
    const batch = readOutbox()
      .filter((event) => !inFlight.has(keyOf(event)))
      .slice(0, BATCH_MAX);
    if (batch.length === 0) return;
    batch.forEach((event) => inFlight.add(keyOf(event)));
    try {
      // The collect call of the contract, at the configured collector (this server's by default).
      // keepalive: a batch on its way as the page goes still arrives (the beacon leaves it, as in flight).
      await request({ ...endpoints.collect, path: clientConfig.analyticsCollectorUrl as '/serv/collect' }, batchBody(batch), { keepalive: true });
      remove(batch);
      retryDelay = BATCH_DELAY_MS;
    } catch (error) {
      if (isTemporary(error)) {
        retryLater();
        return;
      }
      // The collector will never take this batch (it says why): keeping it would block the rest.
      remove(batch);
    } finally {
      batch.forEach((event) => inFlight.delete(keyOf(event)));
    }
  }
}

function retryLater(): void {
  // Offline, the online event sends them.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  timer ??= setTimeout(() => void flush(), retryDelay);
  retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
}

/** As the page is hidden or goes: what waits leaves by beacon, which outlives the page. */
export function flushByBeacon(): void {
  clearTimeout(timer);
  timer = undefined;
  if (navigator.onLine === false || typeof navigator.sendBeacon !== 'function') return;
  const waiting = readOutbox().filter((event) => !inFlight.has(keyOf(event)));
  for (let start = 0; start < waiting.length; start += BATCH_MAX) {
    const batch = waiting.slice(start, start + BATCH_MAX);
    // text/plain: a beacon of that type needs no CORS preflight (the collector reads it as JSON).
    if (!navigator.sendBeacon(clientConfig.analyticsCollectorUrl, JSON.stringify(batchBody(batch)))) return;
    remove(batch);
  }
}

function listen(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('online', () => void flush());
  window.addEventListener('pagehide', flushByBeacon);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushByBeacon();
  });
}

export function record<K extends TrackedEventName>(event: K, properties: TrackedEvents[K], user: TrackingUser, time: number): void {
  listen();
  const outbox = readOutbox();
  outbox.push({
    id: `${time.toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
    event,
    properties: { ...userProperties(user, location.search, useLayoutStore.getState().isMobile), ...properties },
    time,
  });
  writeOutbox(outbox);
  if (outbox.length >= BATCH_MAX) void flush();
  else timer ??= setTimeout(() => void flush(), BATCH_DELAY_MS);
}

/** Forgets the timers and listeners' state (tests). */
export function resetTrackingClient(): void {
  clearTimeout(timer);
  timer = undefined;
  retryDelay = BATCH_DELAY_MS;
  inFlight = new Set();
}
