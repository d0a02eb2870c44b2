/**
 * The live stream, GET /serv/v1/live (routes/live.ts, services/live.ts, migration 0012_live), on
 * both engines, read over HTTP as a browser's EventSource reads it:
 *
 * - it opens with `ready` and its id; a new post reaches every stream, a changed notice only its
 *   user's, each with an id;
 * - a reconnect's Last-Event-ID is sent what it missed, in order; an id no longer kept is told to
 *   refetch;
 * - a ticket ended by a login elsewhere is told `ended` on its open stream, and a stream opened
 *   with it is answered 452;
 * - a quiet stream sends a comment every LIVE_HEARTBEAT_MS, and counts as one connection of its
 *   address (MAX_CONNECTIONS_PER_ADDRESS);
 * - with two processes on one PostgreSQL, a post made through one reaches a stream of the other.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/shared/api.ts';
import { HTTP_LOGGED_IN_ELSEWHERE, OTHER_PATHS, TICKET_COOKIE } from '../../src/shared/endpoints.ts';
import { newClientId, phoneSource, testAppFor, testDatabases } from '../support/api.ts';
import { openPostgresTestDatabase } from '../support/db.ts';
import { callOver, removeServerBundle, startServerProcess, type ServerProcess } from '../support/server-process.ts';

/** How long an event may take to arrive before the test calls it lost (the goal is 2 s; this is a loaded machine). */
const ARRIVES_WITHIN_MS = 20_000;

interface StreamEvent {
  id: string | undefined;
  event: string;
  data: unknown;
}

interface Stream {
  status: number;
  events: StreamEvent[];
  /** The comment lines (heartbeats) read so far. */
  comments(): number;
  /** The first event of `kind` after the `from`-th (default: after those already waited for). */
  next(kind: string, match?: (event: StreamEvent) => boolean): Promise<StreamEvent>;
  close(): void;
}

/** A stream read as EventSource reads it: blocks of `field: value` lines ended by an empty line. */
function openStream(base: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${OTHER_PATHS.live}`, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const events: StreamEvent[] = [];
      let comments = 0;
      const waiters = new Set<() => void>();
      let seen = 0;
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              comments += 1;
              continue;
            }
            const colon = line.indexOf(':');
            fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (!fields.has('event')) continue;
          events.push({ id: fields.get('id'), event: fields.get('event')!, data: JSON.parse(fields.get('data') ?? 'null') });
          for (const wake of waiters) wake();
        }
      });
      resolve({
        status: response.statusCode ?? 0,
        events,
        comments: () => comments,
        next(kind, match = () => true) {
          return new Promise((found, lost) => {
            const look = () => {
              const at = events.findIndex((event, i) => i >= seen && event.event === kind && match(event));
              if (at < 0) return false;
              seen = at + 1;
              waiters.delete(wake);
              clearTimeout(timer);
              found(events[at]!);
              return true;
            };
            const wake = () => void look();
            const timer = setTimeout(() => {
              waiters.delete(wake);
              lost(new Error(`no ${kind} event within ${ARRIVES_WITHIN_MS} ms; got ${JSON.stringify(events)}`));
            }, ARRIVES_WITHIN_MS);
            if (!look()) waiters.add(wake);
          });
        },
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

const cookieOf = (ticket: string) => ({ cookie: `${TICKET_COOKIE}=${ticket}` });
const freshPhone = phoneSource('1570041');

/** A stream per test at most, plus the one the cap refuses. */
const CONNECTIONS_PER_ADDRESS = 4;

describe.each(testDatabases)('the live stream on $name', ({ open }) => {
  const ctx = testAppFor(open, { LIVE_HEARTBEAT_MS: '200', MAX_CONNECTIONS_PER_ADDRESS: String(CONNECTIONS_PER_ADDRESS) });
  let base: string;
  const streams: Stream[] = [];
  const stream = async (headers: Record<string, string> = {}) => {
    const opened = await openStream(base, headers);
    streams.push(opened);
    return opened;
  };

  beforeAll(async () => {
    await ctx.t.app.live.listenTo(ctx.database);
    await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.t.app.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    for (const opened of streams.splice(0)) opened.close();
    // Gone from the process too: the next test's streams have the whole cap.
    await vi.waitFor(() => expect(ctx.t.app.live.streamCount).toBe(0));
  });

  const addPost = async (ticket: string, channelId: number) =>
    (
      await ctx.t.call<{ id: number }>(api.postAdd, { content: '实时推送的一条动态', channel_id: [channelId], client_id: newClientId('live') }, { ticket })
    ).data().id;

  it('tells every stream of a new post and only its user of a notice, each with an id', async () => {
    const author = await ctx.t.login(freshPhone());
    const commenter = await ctx.t.login(freshPhone());
    const visitor = await stream();
    expect(visitor.status).toBe(200);
    const ready = await visitor.next('ready');
    expect(ready.id).toMatch(/^\d+$/);
    const authorStream = await stream(cookieOf(author.ticket));
    const commenterStream = await stream(cookieOf(commenter.ticket));
    await authorStream.next('ready');
    await commenterStream.next('ready');

    const postId = await addPost(author.ticket, 2);
    const seen = await visitor.next('post', (event) => (event.data as { post_id: number }).post_id === postId);
    expect(seen.data).toEqual({ post_id: postId, channel_ids: [2] });
    expect(Number(seen.id)).toBeGreaterThan(Number(ready.id));
    await authorStream.next('post', (event) => (event.data as { post_id: number }).post_id === postId);

    await ctx.t.call(api.commentAdd, { post_id: postId, content: '实时的评论', client_id: newClientId('live') }, { ticket: commenter.ticket }).then((r) => r.data());
    const notice = await authorStream.next('notice');
    expect(notice.data).toEqual({});
    // Events come in order: once a later post has reached them, no notice is on its way to the others.
    const later = await addPost(author.ticket, 2);
    for (const other of [visitor, commenterStream]) await other.next('post', (event) => (event.data as { post_id: number }).post_id === later);
    expect(commenterStream.events.filter((event) => event.event === 'notice')).toEqual([]);
    expect(visitor.events.filter((event) => event.event === 'notice')).toEqual([]);
  }, 120_000);

  it('tells a stream opened with the ticket as headers (the mini-program, the native app) of its user’s notices', async () => {
    const deviceId = 'live-header-device';
    const author = await ctx.t.login(freshPhone(), 'mobile', { deviceId });
    const commenter = await ctx.t.login(freshPhone());
    const authorStream = await stream({ ticket: author.ticket, 'device-id': deviceId });
    await authorStream.next('ready');
    const asAuthor = { ticket: author.ticket, asHeaders: { deviceId } };
    const postId = (
      await ctx.t.call<{ id: number }>(api.postAdd, { content: '从应用里发的动态', channel_id: [2], client_id: newClientId('live') }, asAuthor)
    ).data().id;
    await ctx.t.call(api.commentAdd, { post_id: postId, content: '给应用用户的评论', client_id: newClientId('live') }, { ticket: commenter.ticket }).then((r) => r.data());
    await authorStream.next('notice');
  }, 120_000);

  it('sends a reconnect what it missed, in order, and an id it no longer keeps a refetch', async () => {
    const author = await ctx.t.login(freshPhone());
    const first = await stream();
    const ready = await first.next('ready');
    // Another stream stays open to see when the process has heard the posts made meanwhile.
    const watcher = await stream();
    await watcher.next('ready');
    first.close();
    const missed = [await addPost(author.ticket, 3), await addPost(author.ticket, 4)];
    await watcher.next('post', (event) => (event.data as { post_id: number }).post_id === missed[1]);

    const back = await stream({ 'last-event-id': ready.id! });
    const replayed = [await back.next('post'), await back.next('post')];
    expect(replayed.map((event) => (event.data as { post_id: number }).post_id)).toEqual(missed);

    const stale = await stream({ 'last-event-id': '1' });
    await stale.next('refetch');
  }, 120_000);

  it('tells a stream its ticket was ended by a login elsewhere, and answers a new one 452', async () => {
    const phone = freshPhone();
    const before = await ctx.t.login(phone, 'mobile');
    const open = await stream(cookieOf(before.ticket));
    await open.next('ready');
    await ctx.t.login(phone, 'mobile');
    await open.next('ended');
    const refused = await stream(cookieOf(before.ticket));
    expect(refused.status).toBe(HTTP_LOGGED_IN_ELSEWHERE);
  }, 120_000);

  it('sends a quiet stream a heartbeat, and counts each stream as one connection of its address', async () => {
    const quiet = await stream();
    await quiet.next('ready');
    await vi.waitFor(() => expect(quiet.comments()).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    for (let i = 1; i < CONNECTIONS_PER_ADDRESS; i++) expect((await stream()).status).toBe(200);
    expect((await stream()).status).toBe(429);
  }, 120_000);
});

describe('two processes on one PostgreSQL', () => {
  let opened: Awaited<ReturnType<typeof openPostgresTestDatabase>>;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    opened = await openPostgresTestDatabase();
    const env = { DATABASE_URL: opened.url, LOGIN_CODE_RESEND_SECONDS: '0' };
    servers = await Promise.all([startServerProcess({ env }), startServerProcess({ env })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await removeServerBundle();
    await opened?.database.close();
    await opened?.stop();
  });

  it('tells a stream of one the post made through the other', async () => {
    const [writer, reader] = servers as [ServerProcess, ServerProcess];
    const phone = freshPhone();
    expect((await callOver(writer.url, api.loginCode.path, { cellphone: phone })).body.code).toBe(0);
    await expect.poll(() => writer.codeFor(phone)).toBeDefined();
    const headers = { 'device-id': 'live-two-processes' };
    const login = await callOver<{ ticket: string }>(writer.url, api.login.path, { cellphone: phone, code: writer.codeFor(phone), device_kind: 'pc' }, { headers });
    const ticket = login.body.data!.ticket;

    const watching = await openStream(reader.url);
    try {
      await watching.next('ready');
      const added = await callOver<{ id: number }>(
        writer.url,
        api.postAdd.path,
        { content: '另一个进程发的动态', channel_id: [1], client_id: newClientId('live') },
        { headers: { ...headers, ticket } },
      );
      const postId = added.body.data!.id;
      expect(postId).toBeGreaterThan(0);
      await watching.next('post', (event) => (event.data as { post_id: number }).post_id === postId);
    } finally {
      watching.close();
    }
  }, 180_000);
});
