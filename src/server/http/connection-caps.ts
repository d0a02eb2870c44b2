/**
 * Caps on connections, of time and of number: deadlines for every connection and a cap per
 * address, so that slow or idle clients cannot hold the server's sockets: the headers and the
 * whole request (body included) must arrive in time (Node answers 408 through
 * answerClientError), an idle kept-alive connection is closed, and one address holds at most
 * so many connections at once; the next is answered 429 and closed.
 * Behind a trusted proxy every connection is the proxy's, so the cap is left to the proxy.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '#shared/errors.ts';
import type { Config } from '../config.ts';
import { answerOnSocket } from './security.ts';
import { RETRY_AFTER_SECONDS } from './error-handler.ts';

export type ConnectionSettings = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnectionsPerAddress' | 'trustProxy'>;

/** Node checks the header and request deadlines this often: a fraction of the shortest, within 0.1-5 s. */
function checkingIntervalMs(settings: ConnectionSettings): number {
  return Math.min(5_000, Math.max(100, Math.floor(Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs) / 4)));
}

/** Fastify's options for the deadlines (its server is made with them). */
export function connectionOptions(settings: ConnectionSettings) {
  return {
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    http: {
      // Node refuses a headers deadline later than the whole request's.
      headersTimeout: Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs),
      connectionsCheckingInterval: checkingIntervalMs(settings),
    },
  };
}

/** Caps the connections each client address holds open at once. */
export function installConnectionCap(server: Server, settings: ConnectionSettings): void {
  if (settings.trustProxy) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
    if (count > settings.maxConnectionsPerAddress) {
      // A held connection may close at any moment: a second is as good a guess as any.
      answerOnSocket(socket, 429, 'Too Many Requests', ErrorCode.TooFrequent, '连接过多，请稍后再试', RETRY_AFTER_SECONDS);
      socket.destroySoon();
    }
  });
}
