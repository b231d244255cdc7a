import type { Db, MongoClient } from 'mongodb';
import { MongoServerError } from 'mongodb';
import type {
  Collection,
  CollectionSpec,
  AnyDoc,
  Doc,
  ReadStore,
  ReadStoreSession,
} from '../read-store.port';
import { DuplicateKeyError } from '../read-store.port';
import { indexName } from '../shared/index-name';
import { MongoCollection } from './mongo-collection';

const NAMESPACE_EXISTS = 48;
const NAMESPACE_NOT_FOUND = 26;

/**
 * ReadStore over MongoDB (create it with `connectMongo`). Filters, updates and sorts pass through.
 * `transaction` is a real multi-document transaction on a replica set or sharded cluster; on a
 * standalone server the body's writes apply one by one (`atomicTransactions` is false), so callers
 * such as projections must keep their writes idempotent.
 */
export class MongoReadStore implements ReadStore {
  private readonly declared = new Set<string>();
  private readonly specs = new Map<string, CollectionSpec>();

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    readonly atomicTransactions: boolean,
  ) {}

  collection<T extends Doc = AnyDoc>(name: string): Collection<T> {
    return new MongoCollection<T>(name, this.db.collection(name), undefined, () =>
      this.checkDeclared(name),
    );
  }

  async declare(specs: readonly CollectionSpec[]): Promise<void> {
    for (const spec of specs) {
      try {
        await this.db.createCollection(spec.name);
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
      }
      await this.reconcileIndexes(spec);
      this.specs.set(spec.name, spec);
      this.declared.add(spec.name);
    }
  }

  /**
   * Makes the collection's indexes exactly the declared ones (listIndexes): an index the
   * declaration no longer lists is dropped, one whose key or options changed is dropped and built
   * again. Unique indexes are plain ones: MongoDB indexes a missing field as null, so null and
   * missing are one value (the SQLite adapter does the same). Non-unique indexes end with `_id`,
   * like the SQLite ones, so a sort ending with the `_id` tie-breaker is answered in index order.
   */
  private async reconcileIndexes(spec: CollectionSpec): Promise<void> {
    const driver = this.db.collection(spec.name);
    const wanted = new Map(
      (spec.indexes ?? []).map((index) => {
        const key: Record<string, 1 | -1> = { ...index.fields };
        if (!index.unique && !('_id' in key)) key['_id'] = 1;
        return [indexName(spec.name, index), { key, unique: index.unique === true }] as const;
      }),
    );
    const existing = (await driver.listIndexes().toArray()) as Array<{
      name: string;
      key: Record<string, unknown>;
      unique?: boolean;
      sparse?: boolean;
      partialFilterExpression?: unknown;
    }>;
    const current = new Set<string>();
    for (const index of existing) {
      if (index.name === '_id_') continue;
      const want = wanted.get(index.name);
      const same =
        want !== undefined &&
        sameKey(index.key, want.key) &&
        (index.unique === true) === want.unique &&
        !index.sparse &&
        index.partialFilterExpression === undefined;
      if (same) current.add(index.name);
      else await driver.dropIndex(index.name);
    }
    for (const [name, want] of wanted) {
      if (current.has(name)) continue;
      try {
        await driver.createIndex(want.key, { name, ...(want.unique ? { unique: true } : {}) });
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000)
          throw new DuplicateKeyError(spec.name, { cause: error });
        throw error;
      }
    }
  }

  async transaction<R>(body: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    // A session object per transaction even without atomicity: what a projection keeps per batch
    // (BatchMemo) is keyed by it.
    if (!this.atomicTransactions) return body({ collection: (name) => this.collection(name) });
    const session = this.client.startSession();
    try {
      // withTransaction retries the body on transient errors; a retried body starts from a clean slate.
      return await session.withTransaction(() =>
        body({
          collection: <T extends Doc = AnyDoc>(name: string) =>
            new MongoCollection<T>(name, this.db.collection(name), session, () =>
              this.checkDeclared(name),
            ),
        }),
      );
    } finally {
      await session.endSession();
    }
  }

  async drop(names: readonly string[]): Promise<void> {
    for (const name of names) {
      const spec = this.specs.get(name);
      if (!spec) {
        await this.db.collection(name).deleteMany({});
        continue;
      }
      // One command instead of deleting document by document; then the declared indexes again.
      try {
        await this.db.collection(name).drop();
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
      }
      await this.declare([spec]);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private checkDeclared(name: string): void {
    if (!this.declared.has(name))
      throw new Error(`Collection ${name} is not declared; call readStore.declare() first`);
  }
}

/** Same fields, same order, same directions (the server may report 1 as 1.0 or Int32). */
function sameKey(actual: Record<string, unknown>, wanted: Record<string, 1 | -1>): boolean {
  const a = Object.entries(actual).map(([field, dir]) => [field, Number(dir)]);
  return JSON.stringify(a) === JSON.stringify(Object.entries(wanted));
}
