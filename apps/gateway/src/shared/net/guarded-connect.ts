import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { isPublicAddress } from './address-policy';

/** Every address a name resolves to (a literal address is not looked up). */
export type AddressLookup = (host: string) => Promise<readonly { readonly address: string }[]>;

export const systemLookup: AddressLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** A host whose address the policy refuses; its message names no address. */
export class AddressRefusedError extends Error {
  readonly code = 'ADDRESS_REFUSED';

  constructor() {
    super('address refused by the outbound address policy');
  }
}

/** A host that resolves to no address. */
export class AddressUnresolvedError extends Error {
  readonly code = 'ADDRESS_UNRESOLVED';

  constructor() {
    super('host does not resolve');
  }
}

export interface AddressGuard {
  readonly lookup?: AddressLookup;
  /** Which addresses may be connected to: public ones unless a test says otherwise. */
  readonly allowed?: (address: string) => boolean;
}

/**
 * The address to connect to for `host` (a URL's hostname, brackets allowed): the literal itself,
 * or the first address the name resolves to. Every address is judged, so a name answering one
 * public and one private address is refused (a second connection attempt could take the other).
 * Throws AddressRefusedError, AddressUnresolvedError, or the resolver's own error.
 */
export async function checkedAddress(host: string, guard: AddressGuard = {}): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const allowed = guard.allowed ?? isPublicAddress;
  const addresses = isIP(bare)
    ? [bare]
    : (await (guard.lookup ?? systemLookup)(bare)).map((entry) => entry.address);
  const [first] = addresses;
  if (first === undefined) throw new AddressUnresolvedError();
  if (!addresses.every(allowed)) throw new AddressRefusedError();
  return first;
}

/**
 * An undici connector that resolves the host itself, judges the addresses, and connects to the
 * checked one: the policy holds for the address actually connected to, whatever DNS answers later
 * (no second lookup happens). The TLS server name and the Host header keep the URL's host.
 */
export function guardedConnector(
  guard: AddressGuard = {},
  options: buildConnector.BuildOptions = {},
): buildConnector.connector {
  const connect = buildConnector(options);
  return (target, callback) => {
    checkedAddress(target.hostname, guard).then(
      (address) => connect({ ...target, hostname: address }, callback),
      (error: Error) => callback(error, null),
    );
  };
}

/**
 * An undici Agent for calls to addresses of someone else's choosing (webhooks, images): every
 * connection through guardedConnector. It follows no redirect (undici's request never does).
 */
export function guardedAgent(guard: AddressGuard = {}, options: Agent.Options = {}): Agent {
  return new Agent({ ...options, connect: guardedConnector(guard) });
}
