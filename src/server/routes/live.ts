/**
 * OTHER_PATHS.live: `GET /serv/v1/live`, the live stream of one device, as server-sent events
 * (text/event-stream), for visitors and logged-in users alike (services/live.ts says what each
 * event means and whom it reaches). It opens with `ready` carrying the id to resume from; each
 * event carries its id, so a reconnect's Last-Event-ID is sent what it missed. A comment every
 * config.liveHeartbeatMs keeps proxies from closing a quiet stream. A ticket ended by a login
 * elsewhere is answered 452 like any call, before the stream opens; ended while it is open, the
 * stream says `ended`. A stream opened anew resumes from `?last_event_id=` as a reconnect from its header.
 */
import type { FastifyInstance } from 'fastify';
import { OTHER_PATHS } from '#shared/endpoints.ts';
import type { LiveEvent } from '../services/live.ts';
import type { RouteDeps } from './deps.ts';

/** How long a browser waits before it reconnects a dropped stream. */
const RECONNECT_MS = 3_000;

/** An event as the stream writes it: what the app needs of it, never whom it concerns. */
function eventText(event: LiveEvent | { kind: 'refetch' }): string {
  const data = event.kind === 'post' ? { post_id: event.post_id, channel_ids: event.channel_ids } : {};
  const kind = event.kind === 'posts' ? 'post' : event.kind === 'notices' ? 'notice' : event.kind;
  return `${'id' in event ? `id: ${event.id}\n` : ''}event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The Last-Event-ID a reconnect sends, or null. */
function lastEventIdOf(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

export async function liveRoute(app: FastifyInstance, { live, config }: RouteDeps) {
  app.get(OTHER_PATHS.live, { schema: { hide: true } }, async (request, reply) => {
    const viewer = await request.resolveViewer();
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx passes it on as it comes instead of buffering it.
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    raw.write(`retry: ${RECONNECT_MS}\nid: ${live.lastId}\nevent: ready\ndata: {}\n\n`);
    let open = true;
    const close = live.open(
      {
        userId: viewer?.userId ?? null,
        ticketId: viewer?.ticketId ?? null,
        send: (event) => {
          if (open) raw.write(eventText(event));
        },
        end: () => raw.end(),
      },
      // A reconnect of the browser's own sends the header; a stream another tab takes over, the query.
      lastEventIdOf(request.headers['last-event-id'] ?? (request.query as { last_event_id?: string }).last_event_id),
    );
    const heartbeat = setInterval(() => raw.write(': ping\n\n'), config.liveHeartbeatMs);
    // The answer's close: the browser went, or the stream was ended (the process stops).
    raw.on('close', () => {
      open = false;
      clearInterval(heartbeat);
      close();
    });
  });
}
