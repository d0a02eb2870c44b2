/** The tracking collector: behaviour events, stored as they come. */
import type { Db } from '../db/client.ts';
import { trackingEvents } from '../db/schema.ts';

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

/** Stores a batch; a client clock more than a day off is replaced by the server's. */
export async function recordEvents(db: Db, uid: number | null, origin: BatchOrigin, events: TrackedEvent[]): Promise<number> {
  const now = Date.now();
  const stored = origin.logStore === undefined ? { app_id: origin.appId } : { app_id: origin.appId, log_store: origin.logStore };
  await db.insert(trackingEvents).values(
    events.map((event) => ({
      event: event.event,
      uid,
      properties: { ...event.properties, ...stored },
      createdAt: new Date(event.time && Math.abs(event.time - now) < 86_400_000 ? event.time : now),
    })),
  );
  return events.length;
}
