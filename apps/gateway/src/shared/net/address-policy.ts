import { BlockList, isIP } from 'node:net';
import { IPv6 } from 'ipaddr.js';

/**
 * IPv4 ranges no outbound call of the gateway's own choosing (webhooks, the image proxy) may reach:
 * IANA's special-purpose ranges that are not globally reachable.
 */
const REFUSED_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // the retired 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address 255.255.255.255
];

/**
 * IPv6 ranges refused inside global unicast (2000::/3); everything outside it is refused as well:
 * unspecified, loopback, IPv4-compatible (::/96), IPv4-mapped (::ffff:0:0/96), IPv4-translated,
 * local-use NAT64 (64:ff9b:1::/48), discard (100::/64), unique-local (fc00::/7), link-local
 * (fe80::/10), site-local and multicast (ff00::/8) all lie there.
 */
const REFUSED_V6: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23], // IETF protocol assignments (Teredo, 2001::/32, is judged by what it wraps)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing identifiers
];

const GLOBAL_UNICAST_V6: readonly [string, number] = ['2000::', 3];

/** IPv6 forms that carry an IPv4 address: judged by the IPv4 inside them. */
interface Wrapping {
  readonly prefix: readonly [string, number];
  /** Byte offsets of the IPv4 addresses carried (all must be public). */
  readonly at: readonly number[];
  /** Teredo stores its client's address with every bit inverted. */
  readonly inverted?: number;
}

const WRAPPINGS: readonly Wrapping[] = [
  { prefix: ['64:ff9b::', 96], at: [12] }, // NAT64 well-known prefix
  { prefix: ['2002::', 16], at: [2] }, // 6to4
  { prefix: ['2001::', 32], at: [4] }, // Teredo: its server…
  { prefix: ['2001::', 32], at: [12], inverted: 0xff }, // …and its client
];

function blockList(
  ranges: ReadonlyArray<readonly [string, number]>,
  type: 'ipv4' | 'ipv6',
): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

// Kept apart: a BlockList matches IPv4-mapped IPv6 rules against IPv4 addresses and back.
const V4 = blockList(REFUSED_V4, 'ipv4');
const V6 = blockList(REFUSED_V6, 'ipv6');
const GLOBAL_UNICAST = blockList([GLOBAL_UNICAST_V6], 'ipv6');
const WRAPPED = WRAPPINGS.map((w) => ({ ...w, list: blockList([w.prefix], 'ipv6') }));

/**
 * Whether an address (IPv4 or IPv6 text, as DNS answers it or as a URL host without brackets) is
 * one the gateway may call on its own: a public unicast address. Anything else — loopback, private,
 * link-local, unique-local, carrier-grade NAT, benchmarking, documentation, multicast, broadcast,
 * unspecified, reserved, an IPv4-mapped or IPv4-compatible IPv6 address, NAT64, 6to4 or Teredo
 * carrying a refused IPv4, a scoped (`%zone`) address, or text that is not an address — is not.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !V4.check(address, 'ipv4');
  // A zone names a local interface; BlockList would not match it against any range.
  if (family !== 6 || address.includes('%')) return false;
  const wrappings = WRAPPED.filter((w) => w.list.check(address, 'ipv6'));
  if (wrappings.length > 0) {
    const bytes = IPv6.parse(address).toByteArray();
    return wrappings.every((w) =>
      w.at.every((offset) => isPublicAddress(carriedV4(bytes, offset, w.inverted ?? 0))),
    );
  }
  return GLOBAL_UNICAST.check(address, 'ipv6') && !V6.check(address, 'ipv6');
}

function carriedV4(bytes: readonly number[], offset: number, inverted: number): string {
  return bytes
    .slice(offset, offset + 4)
    .map((byte) => byte ^ inverted)
    .join('.');
}
