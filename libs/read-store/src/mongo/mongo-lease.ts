import { MongoClient, type Collection, type Document } from 'mongodb';
import { dbNameFromUrl } from './connect-mongo';

/** The collection of leases: one document per role. */
export const LEASES_COLLECTION = 'leases';

export interface LeaseDoc {
  readonly _id: string;
  readonly holder: string | null;
  readonly token: number;
  readonly expiresAt: Date;
}

/** The driver calls the lease uses, so a test can hand an in-process fake of them. */
export type LeaseCollection = Pick<
  Collection<LeaseDoc>,
  'findOneAndUpdate' | 'updateOne' | 'findOne'
>;

const DUPLICATE_KEY = 11000;

/** Expires, as judged by the server's clock at the time of the write. */
const EXPIRED: Document = { $expr: { $lte: ['$expiresAt', '$$NOW'] } };
const UNEXPIRED: Document = { $expr: { $gt: ['$expiresAt', '$$NOW'] } };
const expiresIn = (ttlMs: number): Document => ({ $add: ['$$NOW', ttlMs] });

/**
 * Leases on MongoDB (several machines sharing READ_STORE_URL). Every expiry is computed and
 * compared by the server (`$$NOW` in an update pipeline), so the machines' clocks never meet.
 * Taking a free, expired or own role is one findOneAndUpdate that also increments the role's
 * token (the fencing token); two contenders on a missing document race on its `_id`, and the
 * loser's upsert fails with a duplicate key, which reads as "not taken".
 */
export class MongoLease {
  constructor(private readonly leases: LeaseCollection) {}

  async acquire(role: string, holder: string, ttlMs: number): Promise<{ token: number } | null> {
    try {
      const doc = await this.leases.findOneAndUpdate(
        { _id: role, $or: [{ holder: null }, { holder }, EXPIRED] },
        [
          {
            $set: {
              holder,
              expiresAt: expiresIn(ttlMs),
              token: { $add: [{ $ifNull: ['$token', 0] }, 1] },
            },
          },
        ],
        { upsert: true, returnDocument: 'after' },
      );
      return doc ? { token: doc.token } : null;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return null;
      throw error;
    }
  }

  async renew(role: string, holder: string, token: number, ttlMs: number): Promise<boolean> {
    const result = await this.leases.updateOne({ _id: role, holder, token }, [
      { $set: { expiresAt: expiresIn(ttlMs) } },
    ]);
    return result.matchedCount === 1;
  }

  async release(role: string, holder: string, token: number): Promise<void> {
    await this.leases.updateOne(
      { _id: role, holder, token },
      { $set: { holder: null, expiresAt: new Date(0) } },
    );
  }

  async holderOf(role: string): Promise<string | null> {
    const doc = await this.leases.findOne({ _id: role, ...UNEXPIRED });
    return doc?.holder ?? null;
  }
}

/**
 * A MongoDB connection of its own for the leases: a renewal must not queue behind the read
 * store's traffic. `close` ends it.
 */
export async function connectMongoLease(
  url: string,
): Promise<{ lease: MongoLease; close(): Promise<void> }> {
  // Short on purpose, unlike the read store's client: a renewal that cannot reach a primary must
  // fail and be tried again within the ttl, not queue for 30 s while the lease runs out.
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 2500 });
  await client.connect();
  const leases = client.db(dbNameFromUrl(url)).collection<LeaseDoc>(LEASES_COLLECTION);
  return { lease: new MongoLease(leases), close: () => client.close() };
}
