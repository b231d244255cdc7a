import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** Names this process in a lease: the machine and pid for the messages, a nonce for uniqueness. */
export const holderId = (): string =>
  `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
