/** The tracking collector: behaviour events, stored as they come, for whoever reads them back later. */
import type { Db } from '../db/client.ts';
import { trackingEvents } from '../db/schema.ts';
import { enforceRateLimit } from './limits/window-counters.ts';

export interface TrackedEvent {
  event: string;
  properties: Record<string, string | number | boolean | null>;
  /** Ms, by the client's clock. */
  time?: number | undefined;
}

/** Where a batch belongs: the app id and, when the client names one, the log store. */
export interface BatchOrigin {
  appId: string;
  logStore?: string | undefined;
}

/**
 * Stores a batch; a client clock more than a day off is replaced by the server's. Anyone may
 * send events (visitors too), so what one address may store is capped in bytes per hour
 * (-2005 beyond it, nothing stored), besides the caps on events per batch and properties per
 * event in the call's schema.
 */
export async function recordEvents(
  db: Db,
  uid: number | null,
  origin: BatchOrigin,
  events: TrackedEvent[],
  cap: { address: string; bytesPerHour: number },
): Promise<number> {
  const now = Date.now();
  const stored = origin.logStore === undefined ? { app_id: origin.appId } : { app_id: origin.appId, log_store: origin.logStore };
  const rows = events.map((event) => ({
    event: event.event,
    uid,
    properties: { ...event.properties, ...stored },
    createdAt: new Date(event.time && Math.abs(event.time - now) < 86_400_000 ? event.time : now),
  }));
  const bytes = rows.reduce((sum, row) => sum + row.event.length + Buffer.byteLength(JSON.stringify(row.properties)), 0);
  await enforceRateLimit(db, `collect-bytes:ip:${cap.address}`, 3600, cap.bytesPerHour, bytes);
  await db.insert(trackingEvents).values(rows);
  return events.length;
}
