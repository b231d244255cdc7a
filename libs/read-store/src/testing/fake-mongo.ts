import type { Db, Document, MongoClient } from 'mongodb';
import { MongoError, MongoErrorLabel, MongoServerError } from 'mongodb';
import { MongoReadStore } from '../mongo/mongo-read-store';
import type { Update } from '../read-store.port';
import { applyUpdate } from '../documents/apply-update';

/*
 * An in-process stand-in for a MongoDB server, as far as MongoReadStore's declare, transaction and
 * by-id reads and writes go (what the projection runner does). Errors are the driver's own
 * MongoServerError with the server's codes and labels, so the adapter's and the runner's checks are
 * the real ones. Filters other than `{}` and `{ _id }` are refused: the read-store contract suite,
 * not this fake, covers queries.
 */

type Docs = Map<string, Document>;
type Store = Map<string, Docs>;

interface IndexInfo {
  readonly name: string;
  readonly key: Record<string, number>;
  readonly unique?: boolean;
}

/** The server's codes the adapter and these tests rely on. */
export const MONGO_CODES = {
  namespaceNotFound: 26,
  indexNotFound: 27,
  namespaceExists: 48,
  indexOptionsConflict: 85,
  indexKeySpecsConflict: 86,
  writeConflict: 112,
} as const;

/** The driver's default budget for withTransaction's retries (sessions.js, MAX_TIMEOUT). */
const TRANSACTION_BUDGET_MS = 120_000;

export interface FakeMongoOptions {
  /** A standalone server: `hello` names no replica set and transactions are refused. */
  readonly standalone?: boolean;
  /** withTransaction's retry budget (default the driver's 120 s). */
  readonly transactionBudgetMs?: number;
  readonly now?: () => number;
}

export function serverError(
  code: number,
  message: string,
  labels: string[] = [],
): MongoServerError {
  return new MongoServerError({ message, errmsg: message, code, errorLabels: labels });
}

/** What a replica set answers when two transactions write one document: labelled transient. */
export function writeConflict(): MongoServerError {
  return serverError(
    MONGO_CODES.writeConflict,
    'WriteConflict error: this operation conflicted with another operation',
    [MongoErrorLabel.TransientTransactionError],
  );
}

export class FakeMongoServer {
  private data: Store = new Map();
  private readonly indexes = new Map<string, Map<string, IndexInfo>>();
  private readonly faults: Array<() => Error | null> = [];
  private readonly commitFaults: Array<{ error: () => Error; landed: boolean }> = [];
  /** How many times a transaction body started, and how many committed. */
  attempts = 0;
  commits = 0;
  /** Codes of the server errors this fake answered with, in order. */
  readonly answeredCodes: number[] = [];

  constructor(readonly options: FakeMongoOptions = {}) {}

  /** The next writes inside a transaction each take one of these: an error to throw, or null to pass. */
  failTransactionWrites(...errors: Array<() => Error | null>): void {
    this.faults.push(...errors);
  }

  /**
   * The next commit fails with this error; `landed`: the server committed and the answer was lost
   * (what UnknownTransactionCommitResult leaves open).
   */
  failCommit(error: () => Error, options: { landed: boolean }): void {
    this.commitFaults.push({ error, landed: options.landed });
  }

  /** A MongoReadStore over this server, as connectMongo would build it. */
  readStore(): MongoReadStore {
    const client = this.client();
    return new MongoReadStore(client, client.db('tollgate'), !this.options.standalone);
  }

  client(): MongoClient {
    return new FakeClient(this) as unknown as MongoClient;
  }

  documents(collection: string): Document[] {
    return [...(this.data.get(collection)?.values() ?? [])];
  }

  indexNames(collection: string): string[] {
    return [...(this.indexes.get(collection)?.keys() ?? [])];
  }

  hello(): Document {
    return this.options.standalone
      ? { isWritablePrimary: true, ok: 1 }
      : { isWritablePrimary: true, setName: 'rs0', ok: 1 };
  }

  /** @internal the collections a session sees: its transaction's copy, else the committed state. */
  store(session: FakeSession | undefined): Store {
    return session?.staged ?? this.data;
  }

  /** @internal */
  beginTransaction(): Store {
    if (this.options.standalone)
      throw serverError(
        20,
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    this.attempts++;
    return structuredClone(this.data);
  }

  /** @internal */
  commit(staged: Store): void {
    const fault = this.commitFaults.shift();
    if (fault && !fault.landed) throw this.answer(fault.error());
    this.data = staged;
    this.commits++;
    if (fault) throw this.answer(fault.error());
  }

  /** @internal */
  beforeWrite(session: FakeSession | undefined): void {
    const error = session?.staged ? this.faults.shift()?.() : undefined;
    if (error) throw this.answer(error);
  }

  /** @internal */
  answer(error: Error): Error {
    if (error instanceof MongoServerError) this.answeredCodes.push(Number(error.code));
    return error;
  }

  /** @internal */
  indexesOf(collection: string, create: boolean): Map<string, IndexInfo> | undefined {
    let found = this.indexes.get(collection);
    if (!found && create) {
      found = new Map([['_id_', { name: '_id_', key: { _id: 1 } }]]);
      this.indexes.set(collection, found);
      if (!this.data.has(collection)) this.data.set(collection, new Map());
    }
    return found;
  }

  /** @internal */
  dropCollection(name: string): boolean {
    const existed = this.indexes.delete(name);
    this.data.delete(name);
    return existed;
  }
}

class FakeClient {
  constructor(private readonly server: FakeMongoServer) {}
  async connect(): Promise<this> {
    return this;
  }
  db(): Db {
    return new FakeDb(this.server) as unknown as Db;
  }
  startSession(): FakeSession {
    return new FakeSession(this.server);
  }
  async close(): Promise<void> {}
}

class FakeDb {
  constructor(private readonly server: FakeMongoServer) {}
  admin() {
    return { command: async () => this.server.hello() };
  }
  collection(name: string): FakeCollection {
    return new FakeCollection(this.server, name);
  }
  async createCollection(name: string): Promise<FakeCollection> {
    if (this.server.indexesOf(name, false))
      throw this.server.answer(
        serverError(MONGO_CODES.namespaceExists, `Collection ${name} already exists.`),
      );
    this.server.indexesOf(name, true);
    return this.collection(name);
  }
}

/**
 * withTransaction as the driver runs it (sessions.js): the body again while its error is labelled
 * TransientTransactionError, the commit again while it fails with UnknownTransactionCommitResult,
 * until the time budget is spent; then the last error as it is.
 */
export class FakeSession {
  staged: Store | null = null;
  constructor(private readonly server: FakeMongoServer) {}

  async withTransaction<R>(fn: (session: this) => Promise<R>): Promise<R> {
    const now = this.server.options.now ?? Date.now;
    const deadline = now() + (this.server.options.transactionBudgetMs ?? TRANSACTION_BUDGET_MS);
    const labelled = (error: unknown, label: string) =>
      error instanceof MongoError && error.hasErrorLabel(label);
    for (;;) {
      const staged = this.server.beginTransaction();
      this.staged = staged;
      let result: R;
      try {
        result = await fn(this);
      } catch (error) {
        if (!labelled(error, MongoErrorLabel.TransientTransactionError) || now() >= deadline)
          throw error;
        continue;
      } finally {
        this.staged = null;
      }
      for (;;) {
        try {
          this.server.commit(staged);
          return result;
        } catch (error) {
          if (labelled(error, MongoErrorLabel.UnknownTransactionCommitResult) && now() < deadline)
            continue;
          if (labelled(error, MongoErrorLabel.TransientTransactionError) && now() < deadline) break;
          throw error;
        }
      }
    }
  }

  async endSession(): Promise<void> {}
}

interface SessionOption {
  readonly session?: FakeSession;
}

class FakeCollection {
  constructor(
    private readonly server: FakeMongoServer,
    private readonly name: string,
  ) {}

  async findOne(filter: Document, options: SessionOption = {}): Promise<Document | null> {
    return this.matching(filter, options.session)[0] ?? null;
  }

  find(filter: Document, options: SessionOption = {}) {
    return { toArray: async () => this.matching(filter, options.session) };
  }

  async countDocuments(filter: Document = {}, options: SessionOption = {}): Promise<number> {
    return this.matching(filter, options.session).length;
  }

  async estimatedDocumentCount(): Promise<number> {
    return this.docs(undefined, false)?.size ?? 0;
  }

  async replaceOne(filter: Document, doc: Document, options: SessionOption & { upsert?: boolean }) {
    this.server.beforeWrite(options.session);
    const docs = this.docs(options.session, true)!;
    const id = idOf(filter);
    const matched = docs.has(id);
    if (matched || options.upsert) docs.set(id, structuredClone({ ...doc, _id: id }));
    return { matchedCount: matched ? 1 : 0, upsertedCount: matched ? 0 : options.upsert ? 1 : 0 };
  }

  async updateOne(filter: Document, update: Update, options: SessionOption & { upsert?: boolean }) {
    this.server.beforeWrite(options.session);
    const docs = this.docs(options.session, true)!;
    const id = idOf(filter);
    const existing = docs.get(id);
    if (existing) applyUpdate(existing, update, false);
    else if (options.upsert) {
      const created: Document = { _id: id };
      applyUpdate(created, update, true);
      docs.set(id, created);
    }
    return {
      matchedCount: existing ? 1 : 0,
      upsertedCount: !existing && options.upsert ? 1 : 0,
    };
  }

  async deleteOne(filter: Document, options: SessionOption = {}) {
    this.server.beforeWrite(options.session);
    const deleted = this.docs(options.session, false)?.delete(idOf(filter)) ?? false;
    return { deletedCount: deleted ? 1 : 0 };
  }

  async deleteMany(filter: Document, options: SessionOption = {}) {
    this.server.beforeWrite(options.session);
    const docs = this.docs(options.session, false);
    const gone = this.matching(filter, options.session);
    for (const doc of gone) docs?.delete(String(doc['_id']));
    return { deletedCount: gone.length };
  }

  listIndexes() {
    return { toArray: async () => [...(this.server.indexesOf(this.name, false)?.values() ?? [])] };
  }

  async createIndex(key: Record<string, number>, options: { name: string; unique?: boolean }) {
    const indexes = this.server.indexesOf(this.name, true)!;
    const unique = options.unique === true;
    for (const index of indexes.values()) {
      const sameKey = JSON.stringify(index.key) === JSON.stringify(key);
      const sameName = index.name === options.name;
      if (sameName && sameKey && (index.unique === true) === unique) return options.name;
      if (sameName && !sameKey)
        throw this.server.answer(
          serverError(
            MONGO_CODES.indexKeySpecsConflict,
            `An existing index has the same name as the requested index: ${options.name}`,
          ),
        );
      if (sameName || sameKey)
        throw this.server.answer(
          serverError(
            MONGO_CODES.indexOptionsConflict,
            `Index already exists with different options: ${index.name}`,
          ),
        );
    }
    indexes.set(options.name, { name: options.name, key, ...(unique ? { unique } : {}) });
    return options.name;
  }

  async dropIndex(name: string): Promise<void> {
    const indexes = this.server.indexesOf(this.name, false);
    if (!indexes)
      throw this.server.answer(
        serverError(MONGO_CODES.namespaceNotFound, `ns not found ${this.name}`),
      );
    if (!indexes.delete(name))
      throw this.server.answer(
        serverError(MONGO_CODES.indexNotFound, `index not found with name [${name}]`),
      );
  }

  async drop(): Promise<boolean> {
    // The driver answers NamespaceNotFound with false (operations/drop.js).
    return this.server.dropCollection(this.name);
  }

  private docs(session: FakeSession | undefined, create: boolean): Docs | undefined {
    const store = this.server.store(session);
    let docs = store.get(this.name);
    if (!docs && create) {
      this.server.indexesOf(this.name, true);
      docs = new Map();
      store.set(this.name, docs);
    }
    return docs;
  }

  private matching(filter: Document, session: FakeSession | undefined): Document[] {
    const docs = this.docs(session, false);
    if (!docs) return [];
    if (Object.keys(filter).length === 0) return [...docs.values()].map((d) => structuredClone(d));
    const doc = docs.get(idOf(filter));
    return doc ? [structuredClone(doc)] : [];
  }
}

function idOf(filter: Document): string {
  const keys = Object.keys(filter);
  if (keys.length !== 1 || typeof filter['_id'] !== 'string')
    throw new Error(
      `fake MongoDB answers only {} and { _id } filters, got ${JSON.stringify(filter)}`,
    );
  return filter['_id'];
}
