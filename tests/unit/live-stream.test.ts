/**
 * Which EventSource the live stream opens (lib/live-stream.ts): a browser's, whose cookie carries
 * the ticket, or, where the ticket travels as headers (the mini-program, the native app), the
 * `eventsource` package's over fetch with those headers, so the stream is the user's and not a
 * visitor's. The network is the test's recording fetch, answering as the server's stream does.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { setRequestHeaderSource } from '../../src/client/lib/http.ts';
import { startLiveStream, type LiveMessage } from '../../src/client/lib/live-stream.ts';

const opened: { url: string; headers: Record<string, string> }[] = [];
const browserSources: string[] = [];

class BrowserEventSource {
  static readonly CLOSED = 2;
  readyState = 0;
  constructor(url: string) {
    browserSources.push(url);
  }
  addEventListener(): void {}
  close(): void {}
}

beforeEach(() => {
  opened.length = 0;
  browserSources.length = 0;
  localStorage.clear();
  vi.stubGlobal('EventSource', BrowserEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL, init: { headers: Record<string, string> }) => {
      opened.push({ url: new URL(url).pathname, headers: init.headers });
      const stream = 'retry: 3000\nid: 41\nevent: ready\ndata: {}\n\nid: 42\nevent: notice\ndata: {}\n\n';
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
});
afterEach(() => {
  setRequestHeaderSource(() => ({}));
  vi.unstubAllGlobals();
});

it('opens the stream with the ticket’s headers where the client sends its ticket so, and hears its events', async () => {
  setRequestHeaderSource(() => ({ ticket: 'T-1', 'device-id': 'D-1' }));
  const heard: LiveMessage[] = [];
  startLiveStream((message) => heard.push(message));
  await vi.waitFor(() => expect(heard).toEqual([{ kind: 'notice', data: {} }]));
  expect(opened).toEqual([{ url: '/serv/v1/live', headers: expect.objectContaining({ ticket: 'T-1', 'device-id': 'D-1' }) }]);
  expect(browserSources).toEqual([]);
  expect(localStorage.getItem('live-last-event-id')).toBe('42');
});

it('opens the browser’s own EventSource where the cookie carries the ticket', () => {
  startLiveStream(() => undefined);
  expect(browserSources).toEqual(['/serv/v1/live']);
  expect(opened).toEqual([]);
});
