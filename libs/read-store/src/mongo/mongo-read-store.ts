import type { Db, MongoClient } from 'mongodb';
import { MongoServerError } from 'mongodb';
import type {
  Collection,
  CollectionSpec,
  AnyDoc,
  DeclareOptions,
  Doc,
  ReadStore,
  ReadStoreSession,
} from '../read-store.port';
import { MongoCollection } from './mongo-collection';
import { declareIndexes } from './mongo-indexes';

const NAMESPACE_EXISTS = 48;
const NAMESPACE_NOT_FOUND = 26;

/**
 * ReadStore over MongoDB (create it with `connectMongo`). Filters, updates and sorts pass through.
 * `transaction` is a real multi-document transaction on a replica set or sharded cluster; on a
 * standalone server (accepted only with READ_STORE_ALLOW_STANDALONE=on, see connect-mongo.ts) the
 * body's writes apply one by one (`atomicTransactions` is false): the projection runner then marks
 * each batch and rebuilds a projection a crash left half-applied (projection/standalone-guard.ts).
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

  async declare(specs: readonly CollectionSpec[], options: DeclareOptions = {}): Promise<void> {
    const reconcile = options.reconcileIndexes ?? true;
    for (const spec of specs) {
      try {
        await this.db.createCollection(spec.name);
      } catch (error) {
        // Another process (or an earlier start) created it: fine.
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
      }
      await declareIndexes(this.db.collection(spec.name), spec, reconcile);
      this.specs.set(spec.name, spec);
      this.declared.add(spec.name);
    }
  }

  async transaction<R>(body: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    // A session object per transaction even without atomicity: what a projection keeps per batch
    // (BatchMemo) is keyed by it.
    if (!this.atomicTransactions) return body({ collection: (name) => this.collection(name) });
    const session = this.client.startSession();
    try {
      // The driver's withTransaction runs the body again (from a clean slate, after a short backoff)
      // while it throws a MongoError labelled TransientTransactionError (a WriteConflict, a failover),
      // and the commit again while it fails with UnknownTransactionCommitResult, for up to 120 s in
      // all; applyEvents lets labelled errors through unwrapped for that. What still fails reaches
      // the projection runner, which applies the batch again later with backoff.
      // Reads inside go to the primary: the driver refuses another read preference in a transaction.
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
      // One command instead of deleting document by document; then the declared indexes again (an
      // undeclared collection is made by its declare()).
      try {
        await this.db.collection(name).drop();
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
      }
      const spec = this.specs.get(name);
      // A fresh collection has nothing to reconcile: create, tolerating a concurrent declare.
      if (spec) await this.declare([spec], { reconcileIndexes: false });
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
