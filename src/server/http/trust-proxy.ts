/**
 * TRUST_PROXY as Fastify's trustProxy option. A hop count becomes a function that believes the
 * nearest N peers, as Express and proxy-addr read it: Fastify itself now ignores X-Forwarded-For
 * for a bare number, which behind nginx would count every client as the proxy's one address.
 * A hop count suits a server only the proxies can reach (HOST=127.0.0.1 or a firewall); where
 * clients could reach it directly, name the proxies' addresses instead.
 */
import type { TrustProxy } from '../config.ts';

export type FastifyTrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

export function trustProxyOption(trustProxy: TrustProxy): FastifyTrustProxy {
  if (typeof trustProxy !== 'number') return trustProxy;
  // Hop 0 is the peer of the socket; each hop believed reads one more X-Forwarded-For entry from the right.
  return (_address, hop) => hop < trustProxy;
}
