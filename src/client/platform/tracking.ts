/**
 * Behaviour tracking: the named events, each with the user properties of the moment it happened.
 * This part is on the first screen and only hands events on; the client that batches, keeps and
 * sends them (tracking-client.ts) loads with the first event.
 */
import { loadChunk } from '../lib/chunk.ts';

export interface TrackedEvents {
  click_resource_position: { position_type: string; position_name: string; position_num: number; page_title: string };
  personal_home_page_view: { page_name: string };
  personal_home_click_button: { button_name: string };
}

export type TrackedEventName = keyof TrackedEvents;

/** Who is logged in, as the session knows it now (the app sets the reader once at start). */
export interface TrackingUser {
  is_login: boolean;
  /** 0 when logged out. */
  uid: number;
}

/** Events not yet accepted by the collector (kept across reloads and offline periods). */
export const TRACKING_OUTBOX_KEY = 'horde:tracking-outbox'; // horde: src/client/README.md ('horde')

let readUser = (): TrackingUser => ({ is_login: false, uid: 0 });

export function setTrackingUser(read: () => TrackingUser): void {
  readUser = read;
}

const loadClient = () => loadChunk(() => import('./tracking-client.ts'));

export function track<K extends TrackedEventName>(event: K, properties: TrackedEvents[K]): void {
  const user = readUser();
  const time = Date.now();
  loadClient().then(
    (client) => client.record(event, properties, user, time),
    // Without its code the event is lost; tracking never troubles the user.
    () => undefined,
  );
}

/** Sends what an earlier visit kept (offline, or the page closed before it was sent). */
export function sendKeptEvents(): void {
  try {
    if (!localStorage.getItem(TRACKING_OUTBOX_KEY)) return;
  } catch {
    return;
  }
  loadClient().then((client) => client.flush(), () => undefined);
}
