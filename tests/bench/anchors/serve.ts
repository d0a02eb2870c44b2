/**
 * A tiny static server for one built anchor, a process of its own (started by anchors.ts):
 *
 *   node --import tsx tests/bench/anchors/serve.ts <built folder>
 *
 * prints one line of JSON, {"url": ...}, once it listens on a free loopback port. It answers
 * as the community's server answers its client (src/server/app.ts, http/static-client.ts):
 * brotli (quality 4) or gzip above 1 KB, hashed assets cached for a year, the rest revalidated,
 * and every other page path answered with index.html.
 */
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const dir = process.argv[2];
if (!dir) throw new Error('usage: serve.ts <built folder>');

const app = Fastify({ logger: false });
await app.register(fastifyCompress, {
  global: true,
  threshold: 1024,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
});
await app.register(fastifyStatic, {
  root: dir,
  wildcard: false,
  index: false,
  setHeaders(reply, path) {
    reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  },
});
app.setNotFoundHandler((request, reply) => {
  const isPage = request.method === 'GET' && !/\.[a-z0-9]+$/i.test(request.url.split('?')[0]!);
  if (!isPage) return reply.status(404).type('text/plain; charset=utf-8').send('not found');
  return reply.header('cache-control', 'no-cache').sendFile('index.html');
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url })}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
