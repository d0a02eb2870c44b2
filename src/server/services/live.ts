/**
 * The live stream's events (GET /serv/v1/live, routes/live.ts): what the database notifies on the
 * channel `live` (migration 0012_live: a new post, a user's notices changed, a ticket ended by a
 * login elsewhere), heard by every process and passed to each of its open streams that it
 * concerns. The last LIVE_REPLAY_EVENTS are kept, so a stream that reconnects with the id of the
 * last event it had (Last-Event-ID) is sent what it missed; when that is no longer known, it is
 * told to `refetch` (read again what it shows). Events arrive at least once: a reconnect may
 * repeat one, and each only makes the app read something again.
 */
import type { Database } from '../db/client.ts';

export const LIVE_CHANNEL = 'live';
/** Events kept for streams that reconnect. */
export const LIVE_REPLAY_EVENTS = 1_000;

export type LiveEvent =
  | { id: number; kind: 'post'; post_id: number; channel_ids: number[] }
  /** Many posts at once (a bulk load): every feed looks again. */
  | { id: number; kind: 'posts' }
  | { id: number; kind: 'notice'; user_id: number }
  /** Many users' notices at once: every logged-in stream reads its count again. */
  | { id: number; kind: 'notices' }
  | { id: number; kind: 'ended'; ticket_id: number };

/** One open stream: who reads it, and how an event reaches it. */
export interface LiveStream {
  userId: number | null;
  ticketId: number | null;
  send(event: LiveEvent | { kind: 'refetch' }): void;
  end(): void;
}

function concerns(event: LiveEvent, stream: LiveStream): boolean {
  switch (event.kind) {
    case 'post':
    case 'posts':
      return true;
    case 'notice':
      return event.user_id === stream.userId;
    case 'notices':
      return stream.userId !== null;
    case 'ended':
      return event.ticket_id === stream.ticketId;
  }
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** A payload as the triggers write it, or null for anything else on the channel. */
export function parseLiveEvent(payload: string): LiveEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const event = value as Record<string, unknown>;
  if (!isId(event.id)) return null;
  switch (event.kind) {
    case 'post':
      return isId(event.post_id) && Array.isArray(event.channel_ids) && event.channel_ids.every(isId)
        ? { id: event.id, kind: 'post', post_id: event.post_id, channel_ids: event.channel_ids }
        : null;
    case 'posts':
    case 'notices':
      return { id: event.id, kind: event.kind };
    case 'notice':
      return isId(event.user_id) ? { id: event.id, kind: 'notice', user_id: event.user_id } : null;
    case 'ended':
      return isId(event.ticket_id) ? { id: event.id, kind: 'ended', ticket_id: event.ticket_id } : null;
    default:
      return null;
  }
}

export class LiveHub {
  private readonly streams = new Set<LiveStream>();
  private recent: LiveEvent[] = [];
  /** The id after which `recent` holds every event this process heard (0: none heard yet). */
  private floor = 0;
  private stopListening: (() => Promise<void>) | null = null;
  /** Who else in this process hears every event (the push sender). */
  private readonly hearers: ((event: LiveEvent) => void)[] = [];

  /** The id a new stream starts from: the last event heard. */
  get lastId(): number {
    return this.recent.at(-1)?.id ?? this.floor;
  }

  get streamCount(): number {
    return this.streams.size;
  }

  /** Hears the database's events from now on (once it is migrated). */
  async listenTo(database: Pick<Database, 'listen'>): Promise<void> {
    this.stopListening = await database.listen(LIVE_CHANNEL, (payload) => this.receive(payload), () => this.lost());
  }

  /** Has `hearer` told of every event this process hears from now on. */
  onEvent(hearer: (event: LiveEvent) => void): void {
    this.hearers.push(hearer);
  }

  receive(payload: string): void {
    const event = parseLiveEvent(payload);
    if (!event) return;
    for (const hearer of this.hearers) hearer(event);
    this.recent.push(event);
    if (this.recent.length > LIVE_REPLAY_EVENTS) this.floor = this.recent.shift()!.id;
    for (const stream of this.streams) if (concerns(event, stream)) stream.send(event);
  }

  /** The connection was lost a while: what was notified meanwhile is unknown, so every stream reads again. */
  private lost(): void {
    this.floor = this.lastId;
    this.recent = [];
    for (const stream of this.streams) stream.send({ kind: 'refetch' });
  }

  /**
   * Adds a stream; `lastEventId`, from a reconnect, has it sent what it missed first (or told to
   * refetch when that is no longer kept). Returns its removal.
   */
  open(stream: LiveStream, lastEventId: number | null): () => void {
    if (lastEventId !== null && lastEventId !== this.lastId) {
      const at = lastEventId === this.floor ? 0 : this.recent.findIndex((event) => event.id === lastEventId) + 1;
      if (at === 0 && lastEventId !== this.floor) stream.send({ kind: 'refetch' });
      else for (const event of this.recent.slice(at)) if (concerns(event, stream)) stream.send(event);
    }
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  /** Ends every stream and stops hearing the database (the process stops). */
  async close(): Promise<void> {
    for (const stream of this.streams) stream.end();
    this.streams.clear();
    const stop = this.stopListening;
    this.stopListening = null;
    await stop?.();
  }
}
