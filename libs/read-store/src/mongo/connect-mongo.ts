import { MongoClient } from 'mongodb';
import { MongoReadStore } from './mongo-read-store';

export interface ConnectMongoOptions {
  /** Bound on server selection and the start-up handshake (default 2500 ms). */
  readonly timeoutMs?: number;
  /** Database name; default: the URL's path, else 'tollgate'. */
  readonly dbName?: string;
}

/**
 * Connects and probes the server once, failing fast with "MongoDB unreachable at <url>" (credentials
 * masked) instead of letting the driver retry for 30 s. The `hello` reply tells whether transactions
 * are available (replica set or sharded cluster).
 */
export async function connectMongo(
  url: string,
  options: ConnectMongoOptions = {},
): Promise<MongoReadStore> {
  const timeoutMs = options.timeoutMs ?? 2500;
  // ignoreUndefined: `{ field: undefined }` means "absent", as in the SQLite adapter.
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    ignoreUndefined: true,
  });
  try {
    // Our own deadline too: a port that accepts TCP and never answers can outlast the driver's.
    await withDeadline(client.connect(), timeoutMs + 500);
    const db = client.db(options.dbName ?? dbNameFromUrl(url));
    const hello = await withDeadline(db.admin().command({ hello: 1 }), timeoutMs);
    const transactional = typeof hello['setName'] === 'string' || hello['msg'] === 'isdbgrid';
    return new MongoReadStore(client, db, transactional);
  } catch (error) {
    void client.close(true).catch(() => undefined);
    throw new Error(`MongoDB unreachable at ${maskCredentials(url)}`, { cause: error });
  }
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
