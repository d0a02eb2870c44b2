/**
 * Serves the built PWA from the same origin as the API. Hashed assets are cached for a year;
 * index.html, the service worker and the manifest are revalidated so updates reach users.
 * Any other GET that is not an API call gets index.html (history-mode routing).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { fail } from '#shared/envelope.ts';
import { ErrorCode } from '#shared/errors.ts';

const API_PREFIXES = ['/serv/', '/wxmisc/', '/img/', '/docs'];

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

export async function registerStaticClient(app: FastifyInstance, clientDir: string | undefined): Promise<void> {
  const hasClient = clientDir !== undefined && existsSync(join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      setHeaders(reply, path) {
        const immutable = path.includes(`${join(clientDir, 'assets')}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (hasClient && wantsPage && !isApiPath(request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(fail(ErrorCode.NotFound, `接口不存在：${request.method} ${request.url.split('?')[0]}`));
  });
}
