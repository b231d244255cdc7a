import { createHmac } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** `sha256=<hex HMAC-SHA256 of the exact body, keyed with the user's secret>`. */
export const SIGNATURE_HEADER = 'X-Tollgate-Signature';

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/**
 * Loopback, private (RFC 1918, unique local), link-local, carrier-grade NAT, unspecified, multicast
 * and reserved addresses, IPv4 and IPv6 (an IPv4-mapped IPv6 address is judged as its IPv4).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true; // not an address: never trusted
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

export type Lookup = (host: string) => Promise<readonly { address: string }[]>;
const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Why the URL may not be called ('' when it may): not http(s), a host that does not resolve, or one
 * that resolves to any private address (every address is checked, so a name with one public and one
 * loopback address is refused too).
 */
export async function webhookAddressProblem(
  url: string,
  allowPrivate: boolean,
  lookup: Lookup = systemLookup,
): Promise<'' | 'invalid' | 'unresolved' | 'private'> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'invalid';
  if (allowPrivate) return '';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: readonly { address: string }[];
  try {
    addresses = isIP(host) ? [{ address: host }] : await lookup(host);
  } catch {
    return 'unresolved';
  }
  if (addresses.length === 0) return 'unresolved';
  return addresses.some((a) => isPrivateAddress(a.address)) ? 'private' : '';
}

export interface WebhookOutcome {
  readonly ok: boolean;
  /** HTTP status; 0 when none came. */
  readonly status: number;
  readonly error: string;
}

/** One POST; redirects are not followed (they could lead to a private address). */
export async function postWebhook(
  url: string,
  body: string,
  secret: string,
  timeoutMs: number,
): Promise<WebhookOutcome> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Tollgate-Notices/1',
  };
  if (secret) headers[SIGNATURE_HEADER] = signBody(body, secret);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, error: ok ? '' : `HTTP ${res.status}` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { ok: false, status: 0, error: cause ?? (error as Error).name ?? 'error' };
  }
}
