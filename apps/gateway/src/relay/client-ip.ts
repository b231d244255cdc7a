import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config/trust-proxy';

/**
 * The client's address as Fastify's `request.ip` gives it with the same `trustProxy` (the relay's
 * fast lane reads it without a Fastify request): the TCP peer, or the last untrusted hop of
 * X-Forwarded-For walked back through the trusted proxies (proxy-addr, Fastify's own library).
 */
export function clientIpOf(trust: TrustProxy | undefined): (req: IncomingMessage) => string {
  if (trust === undefined || trust === false) return (req) => req.socket.remoteAddress ?? '';
  const trusted =
    typeof trust === 'number' ? (_: string, hop: number) => hop < trust : proxyAddr.compile(trust);
  return (req) => {
    const chain = proxyAddr.all(req, trusted);
    return chain[chain.length - 1] ?? '';
  };
}
