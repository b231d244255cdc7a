/**
 * A token's IP allow-list (IPs and CIDRs, v4 and v6), compiled once per list and reused: the relay
 * checks it on every request of a restricted token.
 */
import { BlockList, isIP } from 'node:net';

const compiled = new WeakMap<readonly string[], BlockList>();

function normalize(ip: string): string {
  const trimmed = ip.trim();
  // IPv4 clients seen through a dual-stack socket.
  return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

function compile(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [address = '', bits] = entry.split('/');
    const family = isIP(normalize(address));
    if (family === 0) continue;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) continue;
    list.addSubnet(normalize(address), prefix, type);
  }
  return list;
}

/** True when the list is empty (no restriction) or contains `ip`. */
export function ipAllowed(allowIps: readonly string[], ip: string): boolean {
  if (allowIps.length === 0 || allowIps.every((e) => e.trim() === '')) return true;
  let list = compiled.get(allowIps);
  if (!list) {
    list = compile(allowIps);
    compiled.set(allowIps, list);
  }
  const address = normalize(ip);
  const family = isIP(address);
  if (family === 0) return false;
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
