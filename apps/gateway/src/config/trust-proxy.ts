import { isIP } from 'node:net';

/**
 * What Fastify (proxy-addr) is told to trust in X-Forwarded-For / -Proto / -Host:
 * - false: nothing, the client is the TCP peer (default);
 * - a hop count: that many proxies in front of the gateway, whatever their addresses;
 * - addresses and CIDRs (and proxy-addr's names loopback, linklocal, uniquelocal): the chain is
 *   walked from the TCP peer back while each hop is trusted, so only addresses appended by
 *   trusted proxies count and a client cannot pick its own IP by sending the header itself.
 */
export type TrustProxy = false | number | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: empty/false, a hop count ("1"), or a comma-separated list of addresses/CIDRs.
 * "true" means one hop (one reverse proxy in front), never "trust every hop": that let any client
 * choose its IP. Anything else is a configuration error, reported at start-up.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0 || entries.length === 0)
    throw new Error(
      `TRUST_PROXY must be "false", a hop count, or a list of addresses/CIDRs; cannot use "${bad.join(', ') || value}"`,
    );
  return entries;
}
