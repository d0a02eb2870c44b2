/**
 * The live group's stream holder, a process of its own beside the server (run.ts, liveGroup):
 * opens `count` live streams (GET /serv/v1/live) to `url`, a few hundred at a time, prints
 * `{"open":count,"ms":…}` once each has its `ready`, then a line `{"post_id":…,"at":…}` (at: ms
 * since 1970) for every post event the `timed`-th stream (from 1) receives, until it is ended.
 *
 *   node --import tsx tests/bench/live-streams.ts <url> <count> <timed>
 */
import http from 'node:http';
import { OTHER_PATHS } from '../../src/shared/endpoints.ts';

const [url = '', countText = '0', timedText = '0'] = process.argv.slice(2);
const count = Number(countText);
const timed = Number(timedText);
/** Streams being opened at once: the server's accept queue holds this many without a refusal. */
const OPENING_AT_ONCE = 200;

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function openOne(index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}${OTHER_PATHS.live}`, { agent, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream ${index} answered ${response.statusCode}`));
      response.setEncoding('utf8');
      let buffer = '';
      let ready = false;
      response.on('data', (chunk: string) => {
        if (!ready && chunk.includes('event: ready')) {
          ready = true;
          resolve();
        }
        if (index !== timed) return;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^event: post\ndata: (.*)$/m.exec(block) ? /^data: (.*)$/m.exec(block)?.[1] : undefined;
          if (data) console.log(JSON.stringify({ post_id: (JSON.parse(data) as { post_id?: number }).post_id, at: Date.now() }));
        }
      });
    });
    request.on('error', reject);
  });
}

const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(OPENING_AT_ONCE, count) }, async () => {
    while (next < count) await openOne(++next);
  }),
);
console.log(JSON.stringify({ open: count, ms: Math.round(performance.now() - started) }));
// Held until the bench ends this process.
setInterval(() => undefined, 60_000);
