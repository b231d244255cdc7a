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
import { indexName } from '../shared/index-name';
import { MongoCollection } from './mongo-collection';

const NAMESPACE_EXISTS = 48;

/**
 * ReadStore over MongoDB (create it with `connectMongo`). Filters, updates and sorts pass through.
 * `transaction` is a real multi-document transaction on a replica set or sharded cluster; on a
 * standalone server the body's writes apply one by one (`atomicTransactions` is false), so callers
 * such as projections must keep their writes idempotent.
 */
export class MongoReadStore implements ReadStore {
  private readonly declared = new Set<string>();

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
      for (const index of spec.indexes ?? []) {
        const fields = Object.keys(index.fields);
        await this.db.collection(spec.name).createIndex(index.fields, {
          name: indexName(spec.name, index),
          ...(index.unique
            ? {
                unique: true,
                // Like SQLite (NULLs never collide), documents lacking the field are outside the index.
                partialFilterExpression: Object.fromEntries(
                  fields.map((f) => [f, { $exists: true }]),
                ),
              }
            : {}),
        });
      }
      this.declared.add(spec.name);
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
    for (const name of names) await this.db.collection(name).deleteMany({});
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private checkDeclared(name: string): void {
    if (!this.declared.has(name))
      throw new Error(`Collection ${name} is not declared; call readStore.declare() first`);
  }
}
