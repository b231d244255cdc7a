import { MongoClient, type Document } from 'mongodb';
import { MongoReadStore } from './mongo-read-store';

export interface ConnectMongoOptions {
  /** Bound on the start-up probe: connecting and the `hello` handshake (default 2500 ms). */
  readonly timeoutMs?: number;
  /** Database name; default: the URL's path, else 'tollgate'. */
  readonly dbName?: string;
  /**
   * READ_STORE_ALLOW_STANDALONE=on: accept a server without transactions; the projection runner
   * then guards its batches (projection/standalone-guard.ts). Default: refuse it at start.
   */
  readonly allowStandalone?: boolean;
}

const DEFAULT_PROBE_MS = 2500;
/** connect() gets a little more than the probe: our deadline, not the driver's, should answer. */
const CONNECT_GRACE_MS = 500;

/**
 * The long-lived client. No short server-selection or connect timeout here: during a replica-set
 * election (10–12 s without a primary) queries and batches should wait for the new primary, which
 * the driver's 30 s default covers; only the start-up probe is bounded short (connectMongo).
 *
 * Reads go to the primary (the driver's default read preference). A `readPreference=secondary` in
 * READ_STORE_URL would answer from a replica that may lag: a command that waited for the projections
 * to pass its position would then read a model without its own change (read-your-writes breaks).
 */
export function createMongoClient(url: string): MongoClient {
  // ignoreUndefined: `{ field: undefined }` means "absent", as in the SQLite adapter.
  return new MongoClient(url, { ignoreUndefined: true });
}

/**
 * Connects and probes the server once, failing fast with "MongoDB unreachable at <url>" (credentials
 * masked) instead of letting the driver retry for 30 s. The `hello` reply tells whether transactions
 * are available (replica set or sharded cluster); a standalone server is refused unless allowed.
 */
export async function connectMongo(
  url: string,
  options: ConnectMongoOptions = {},
): Promise<MongoReadStore> {
  return openMongoReadStore(createMongoClient(url), url, options);
}

/** connectMongo over a given client (tests pass a fake one). */
export async function openMongoReadStore(
  client: MongoClient,
  url: string,
  options: ConnectMongoOptions = {},
): Promise<MongoReadStore> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_MS;
  const db = client.db(options.dbName ?? dbNameFromUrl(url));
  let hello: Document;
  try {
    // Our own deadline: the client waits up to 30 s for a server, and a port that accepts TCP and
    // never answers can outlast even that.
    await withDeadline(client.connect(), timeoutMs + CONNECT_GRACE_MS);
    hello = await withDeadline(db.admin().command({ hello: 1 }), timeoutMs);
  } catch (error) {
    void client.close(true).catch(() => undefined);
    throw new Error(`MongoDB unreachable at ${maskCredentials(url)}`, { cause: error });
  }
  const transactional = typeof hello['setName'] === 'string' || hello['msg'] === 'isdbgrid';
  if (!transactional && !options.allowStandalone) {
    await client.close().catch(() => undefined);
    throw new Error(standaloneRefusal(url));
  }
  return new MongoReadStore(client, db, transactional);
}

export function standaloneRefusal(url: string): string {
  return (
    `MongoDB at ${maskCredentials(url)} is a standalone server: projections need transactions; ` +
    'run a one-member replica set (docs/engines.md) or set READ_STORE_ALLOW_STANDALONE=on'
  );
}

export function dbNameFromUrl(url: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]+)/.exec(url);
  return match?.[1] ? decodeURIComponent(match[1]) : 'tollgate';
}

export function maskCredentials(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
