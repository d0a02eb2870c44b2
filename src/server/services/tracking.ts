/** The tracking collector: behaviour events, stored as they come. */
import type { Db } from '../db/client.ts';
import { trackingEvents } from '../db/schema.ts';

export interface TrackedEvent {
  event: string;
  properties: Record<string, string | number | boolean | null>;
  /** Ms, by the client's clock. */
  time?: number | undefined;
}

/** Stores a batch; a client clock more than a day off is replaced by the server's. */
export async function recordEvents(db: Db, uid: number | null, appId: string, events: TrackedEvent[]): Promise<number> {
  const now = Date.now();
  await db.insert(trackingEvents).values(
    events.map((event) => ({
      event: event.event,
      uid,
      properties: { ...event.properties, app_id: appId },
      createdAt: new Date(event.time && Math.abs(event.time - now) < 86_400_000 ? event.time : now),
    })),
  );
  return events.length;
}
