import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import type {
  Collection,
  CollectionSpec,
  AnyDoc,
  DeclareOptions,
  Doc,
  ReadStore,
  ReadStoreSession,
} from '../read-store.port';
import type { SearchIndex } from './search-narrowing';
import { ReadPool, type ReadQuery } from './read-pool';
import { registerRegexp } from './regexp-function';
import { AsyncMutex } from './async-mutex';
import { copyRows, type RowCopy } from './copy-rows';
import { copyDatabase, type DatabaseCopy } from './copy-database';
import { keyColumn } from './sql-names';
import { SqliteCollection, type SqliteAccess } from './sqlite-collection';
import { declareCollection, dropCollection, keyPaths } from './sqlite-schema';
import { deferrableKeyPaths, dropDeferrable } from './deferred-indexes';
import { StatementCache } from './statement-cache';
import { GuardedFilters } from './guarded-filter';

export interface SqliteReadStoreOptions {
  /** Worker threads serving reads outside transactions (file stores only). Default 2. */
  readonly readers?: number;
  /**
   * Refuse a store write or a nested transaction from inside a transaction body (it would wait for
   * the lock its own transaction holds, forever). Default: only under tests (NODE_ENV=test). The
   * check needs AsyncLocalStorage, which on Node 20 turns on promise hooks for the whole process:
   * every promise the relay makes then pays for them (about 3 % of its CPU under load, measured in
   * docs/performance-journal.md). A programming error to catch in tests, not a production guard.
   */
  readonly guardNesting?: boolean;
  /**
   * The write connection's page cache, in KiB. Default: better-sqlite3's (16 000 KiB), which an
   * offline rebuild or import wants: SQLite's index build sorts in memory up to that size. A
   * serving process passes less (LIVE_PAGE_CACHE_KIB): a receipt's writes touch a few pages (its
   * log row at the right edges, the documents it updates), a page dropped from the cache is still
   * in the OS's file cache, and a cache, once filled, is never given back.
   */
  readonly pageCacheKiB?: number;
  /**
   * A scratch file, whose rows matter only until this process has copied them elsewhere (the
   * offline rebuild's second lane, rebuilt again after a crash): its rollback journal in memory
   * instead of a WAL, and no fsync. A commit then writes each changed page once, into the file
   * (WAL writes it to the log with a checksum, then again into the file at a checkpoint): the
   * lane's commits took ~14 % of its thread (docs/performance-journal.md, "The rebuild's second
   * lane on a scratch file"). Without WAL a reader on another connection would wait for the
   * writer's locks, so reads run on the write connection, as in memory.
   */
  readonly scratch?: boolean;
  /**
   * A serving process's store: the write connection keeps its statement journals in memory. Each
   * statement inside a transaction keeps a copy of the pages it changes, to undo itself alone;
   * past 64 KiB SQLite moves that copy to a temporary file, which then serves every later statement
   * of the transaction, one `pwrite` a page: 15 % of the projector child's CPU under load
   * (docs/performance-journal.md, "The projector's statement journals in memory"). Such a copy is
   * one statement's pages.
   *
   * Where the journal lives is fixed when a transaction begins (`temp_store = MEMORY` then), but
   * the same setting would hold a sort in memory whatever its size: a transaction's body runs with
   * `temp_store = FILE`, and so does each whole-collection operation (declare's index builds, drop,
   * deferIndexes, copyRowsFrom), as without this option.
   */
  readonly journalsInMemory?: boolean;
}

/**
 * The write connection's page cache in a serving gateway or its projector child. With the default
 * the projector child's cache filled to 16 MiB within a minute of relaying; at 2 MiB its peak RSS
 * was 16 MiB lower and its CPU per receipt the same (docs/performance-journal.md, "The projector's
 * young generation and the read store's page cache").
 */
export const LIVE_PAGE_CACHE_KIB = 2048;

/**
 * `temp_store` values: temporary data (statement journals, sorts, temporary tables) in memory, or
 * in files (SQLite's default here).
 */
const IN_MEMORY = 'MEMORY';
const ON_DISK = 'FILE';

/**
 * ReadStore on one SQLite file (or ':memory:'). One table per collection, `(id TEXT PRIMARY KEY, doc
 * TEXT)` with the document as JSON (binary JSON for a write-once collection: sql-names.ts, DOC_TEXT),
 * plus one key column per indexed path (keyColumn; computed, not stored, for a write-once collection);
 * filters run as SQL over json_extract and those columns, which the indexes are on. better-sqlite3
 * is synchronous but `transaction` bodies are async, so an async mutex makes transactions and
 * out-of-transaction writes take turns on the single write connection.
 *
 * Reads outside a transaction (what query handlers do) never run on the caller's thread: a small pool
 * of worker threads, each with its own read-only connection, serves them, so a search over a million
 * rows leaves the event loop (and the relay on it) free. WAL gives those connections the last
 * committed state without waiting, so a read issued after a write's commit sees it. Reads inside a
 * projection's transaction stay on the write connection and see its pending writes. (':memory:'
 * cannot be shared between connections: there every read runs on the write connection.)
 */
export class SqliteReadStore implements ReadStore {
  readonly atomicTransactions = true;

  private readonly writer: Database.Database;
  private readonly writes: StatementCache;
  private readonly pool: ReadPool | null;
  private readonly mutex = new AsyncMutex();
  private readonly inTransaction: AsyncLocalStorage<true> | undefined;
  private readonly declared = new Set<string>();
  private readonly searchIndexes = new Map<string, SearchIndex>();
  private readonly indexedPaths = new Map<string, ReadonlySet<string>>();
  private readonly keyColumns = new Map<string, ReadonlyMap<string, string>>();
  private readonly specs = new Map<string, CollectionSpec>();
  /** Collections whose indexes, counters and computed keys wait for buildIndexes() (a rebuild). */
  private readonly deferred = new Set<string>();
  /** A deferred collection's key columns when some were dropped with its indexes. */
  private readonly deferredKeyColumns = new Map<string, ReadonlyMap<string, string>>();
  /** What a collection asks of its declaration and its kept filters, the same in a transaction. */
  private readonly schemaAccess: Pick<
    SqliteAccess,
    'search' | 'indexed' | 'keys' | 'writeOnce' | 'counted' | 'filters'
  > = {
    search: (name) => this.searchIndexes.get(name),
    indexed: (name) => this.indexedPaths.get(name),
    keys: (name) => this.keysOf(name),
    writeOnce: (name) => this.specs.get(name)?.writeOnce === true,
    counted: (name) => !this.deferred.has(name),
    filters: new GuardedFilters(),
  };
  private readonly storeAccess: SqliteAccess;
  /** A `backup()` under way: `close()` stops it rather than wait (a checkpoint can wait). */
  private copying: DatabaseCopy | undefined;
  /**
   * One transaction wrapper for every write: better-sqlite3's `transaction()` builds four wrapper
   * functions and their properties per call, which was ~12 % of a rebuild's CPU when made per write.
   */
  private readonly atomic: Database.Transaction<(fn: (db: StatementCache) => unknown) => unknown>;
  /** SqliteReadStoreOptions.journalsInMemory. */
  private readonly journalsInMemory: boolean;

  constructor(
    readonly path: string,
    options: SqliteReadStoreOptions = {},
  ) {
    const cache = options.pageCacheKiB;
    if (cache !== undefined && !(Number.isInteger(cache) && cache > 0))
      throw new Error(`pageCacheKiB must be a positive integer, got ${cache}`);
    if (options.guardNesting ?? process.env.NODE_ENV === 'test') {
      this.inTransaction = new AsyncLocalStorage<true>();
    }
    this.writer = new Database(path);
    if (options.scratch) {
      this.writer.pragma('journal_mode = MEMORY'); // a rollback still works, a crash loses the file
      this.writer.pragma('synchronous = OFF');
    } else {
      this.writer.pragma('journal_mode = WAL');
      this.writer.pragma('synchronous = NORMAL'); // WAL-safe; read models are rebuildable anyway
    }
    if (cache !== undefined) this.writer.pragma(`cache_size = -${cache}`);
    this.journalsInMemory = options.journalsInMemory === true;
    if (this.journalsInMemory) this.writer.pragma(`temp_store = ${IN_MEMORY}`);
    registerRegexp(this.writer);
    const inMemory = path === ':memory:' || path === '';
    this.writes = new StatementCache(this.writer);
    this.atomic = this.writer.transaction((fn: (db: StatementCache) => unknown) => fn(this.writes));
    this.pool = inMemory || options.scratch ? null : new ReadPool(path, options.readers ?? 2);
    this.storeAccess = {
      read: async (name, query) => {
        this.checkDeclared(name);
        return this.pool ? this.pool.run(query) : runOn(this.writes, query);
      },
      // async like the session's: a refusal reaches the caller as a rejection (collections return
      // this promise as their own).
      write: async (name, fn) => {
        this.checkDeclared(name);
        this.checkNotInsideTransaction();
        return this.mutex.run(() => this.atomically(fn, true));
      },
      ...this.schemaAccess,
      // Outside a transaction the write lock is not ours to take here: the query scans instead.
      useIndexes: () => undefined,
    };
  }

  collection<T extends Doc = AnyDoc>(name: string): Collection<T> {
    return new SqliteCollection<T>(name, this.storeAccess);
  }

  /**
   * Always reconciles (`reconcileIndexes` is accepted and has no effect): one SQLite file belongs to
   * one DATA_DIR on one machine, and the schema changes run in one write transaction, so
   * processes sharing the file take turns and none can see a half-reconciled table.
   */
  async declare(specs: readonly CollectionSpec[], _options?: DeclareOptions): Promise<void> {
    this.checkNotInsideTransaction();
    const searches = await this.mutex.run(() =>
      this.sortingOnDisk(() =>
        this.writer.transaction(() =>
          specs.map((spec) => [spec.name, declareCollection(this.writer, spec)] as const),
        )(),
      ),
    );
    for (const spec of specs) {
      this.specs.set(spec.name, spec);
      const leading = (spec.indexes ?? []).map((index) => Object.keys(index.fields)[0]!);
      this.indexedPaths.set(spec.name, new Set(leading.filter((path) => path !== '_id')));
      this.keyColumns.set(
        spec.name,
        new Map(keyPaths(spec).map((path) => [path, keyColumn(path)])),
      );
    }
    for (const [name, search] of searches) {
      this.declared.add(name);
      this.deferred.delete(name); // declaring creates every missing index
      if (search) this.searchIndexes.set(name, search);
      else this.searchIndexes.delete(name);
    }
  }

  /**
   * For an offline rebuild from scratch: drops these declared collections' non-unique indexes,
   * trigram indexes, row counters' triggers and computed key columns (deferred-indexes.ts), so the
   * replay inserts rows into the tables alone; buildIndexes() then builds each index once, from all
   * the rows (one sort each instead of a B-tree insert per row), and recounts. A query inside a
   * transaction that may want an index builds that collection's first. If the process dies before
   * buildIndexes(), the next declare() (every start) creates what is missing.
   */
  async deferIndexes(names: readonly string[]): Promise<void> {
    this.checkNotInsideTransaction();
    const specs = names.map((name) => {
      const spec = this.specs.get(name);
      if (!spec)
        throw new Error(`Collection ${name} is not declared; call readStore.declare() first`);
      return spec;
    });
    await this.mutex.run(() =>
      this.sortingOnDisk(() =>
        this.writer.transaction(() => {
          for (const spec of specs) dropDeferrable(this.writer, spec);
        })(),
      ),
    );
    for (const spec of specs) {
      this.deferred.add(spec.name);
      this.searchIndexes.delete(spec.name);
      const dropped = deferrableKeyPaths(spec);
      const kept = [...(this.keyColumns.get(spec.name) ?? [])].filter(
        ([path]) => !dropped.includes(path),
      );
      this.deferredKeyColumns.set(spec.name, new Map(kept));
    }
  }

  /** Builds the indexes deferIndexes() dropped (a declare() of those collections). */
  async buildIndexes(): Promise<void> {
    const specs = [...this.deferred].map((name) => this.specs.get(name)!);
    if (specs.length > 0) await this.declare(specs);
  }

  async transaction<R>(body: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    this.checkNotInsideTransaction();
    return this.mutex.run(async () => {
      let open = true;
      /** Deferred indexes built by this transaction: deferred again if it rolls back. */
      const built: string[] = [];
      const sessionAccess: SqliteAccess = {
        read: async (name, query) => {
          this.checkDeclared(name);
          if (!open) throw new Error('Read-store session used after its transaction ended');
          return runOn(this.writes, query);
        },
        write: async (name, fn, oneStatement) => {
          this.checkDeclared(name);
          if (!open) throw new Error('Read-store session used after its transaction ended');
          // A single statement is atomic already: no savepoint around it.
          return oneStatement ? fn(this.writes) : this.atomically(fn, false);
        },
        ...this.schemaAccess,
        useIndexes: (name) => {
          if (open && this.deferred.has(name)) built.push(this.buildDeferred(name));
        },
      };
      const session: ReadStoreSession = {
        collection: <T extends Doc = AnyDoc>(name: string) =>
          new SqliteCollection<T>(name, sessionAccess),
      };
      this.writer.exec('BEGIN IMMEDIATE');
      try {
        // Its statement journals stay where the setting at BEGIN put them; its sorts go to disk.
        if (this.journalsInMemory) this.writer.pragma(`temp_store = ${ON_DISK}`);
        const result = await (this.inTransaction
          ? this.inTransaction.run(true, () => body(session))
          : body(session));
        this.writer.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        for (const name of built) this.deferIn(name);
        throw error;
      } finally {
        open = false;
        if (this.journalsInMemory) this.writer.pragma(`temp_store = ${IN_MEMORY}`);
      }
    });
  }

  async drop(names: readonly string[]): Promise<void> {
    this.checkNotInsideTransaction();
    await this.mutex.run(() =>
      this.sortingOnDisk(() =>
        this.writer.transaction(() => {
          for (const name of names) {
            const spec = this.specs.get(name);
            if (spec) {
              // One DROP TABLE instead of a row-by-row DELETE that fires the counter and search
              // triggers per row, then the declared table, indexes, counter and search index again.
              dropCollection(this.writer, name);
              const search = declareCollection(this.writer, spec);
              if (search) this.searchIndexes.set(name, search);
              this.deferred.delete(name);
              continue;
            }
            // Not declared here: its table (of whatever layout) goes; declare() makes it anew.
            dropCollection(this.writer, name);
          }
        })(),
      ),
    );
  }

  /**
   * Copies rows from another read-store file declared from the same specs (a rebuild lane's,
   * closed) in one transaction, in SQL (copy-rows.ts). The collections must be declared here.
   */
  async copyRowsFrom(file: string, copies: readonly RowCopy[]): Promise<void> {
    this.checkNotInsideTransaction();
    for (const { collection } of copies) this.checkDeclared(collection);
    await this.mutex.run(() => this.sortingOnDisk(() => copyRows(this.writer, file, copies)));
  }

  /**
   * An online copy of the whole database into `destination` (a new file) as it stood at one commit,
   * made by a worker thread on a read-only connection of its own: the projections keep writing
   * meanwhile, and the event loop stays free. File stores only.
   */
  backup(destination: string): Promise<void> {
    if (!this.pool)
      return Promise.reject(new Error('An in-memory or scratch read store cannot be copied'));
    const copy = copyDatabase(this.path, destination);
    this.copying = copy;
    return copy.done.finally(() => {
      if (this.copying === copy) this.copying = undefined;
    });
  }

  async close(): Promise<void> {
    await this.copying?.cancel();
    // Let a running transaction finish; anything queued after close fails on the closed connection.
    await this.mutex.run(async () => {
      await this.pool?.close();
      if (this.writer.open) this.writer.close();
    });
  }

  /** The key columns the collection's table has now. */
  private keysOf(name: string): ReadonlyMap<string, string> | undefined {
    return this.deferred.has(name) ? this.deferredKeyColumns.get(name) : this.keyColumns.get(name);
  }

  /** Builds a deferred collection's indexes on the write connection (inside our transaction). */
  private buildDeferred(name: string): string {
    const search = declareCollection(this.writer, this.specs.get(name)!);
    this.deferred.delete(name);
    if (search) this.searchIndexes.set(name, search);
    return name;
  }

  /**
   * Runs a whole-collection operation (outside a transaction) with the connection's temporary data
   * on disk: an index build's sort, or a statement over every row, may be larger than memory should
   * hold. A store that keeps its journals in memory returns to that afterwards, for the next
   * transaction's BEGIN. `pragma()` prepares its statement anew each time, and must: SQLite
   * changes temp_store when the statement is compiled, so a cached one would change nothing.
   */
  private sortingOnDisk<R>(fn: () => R): R {
    if (!this.journalsInMemory) return fn();
    this.writer.pragma(`temp_store = ${ON_DISK}`);
    try {
      return fn();
    } finally {
      this.writer.pragma(`temp_store = ${IN_MEMORY}`);
    }
  }

  /** Marks a collection's indexes as dropped again (a transaction that built them rolled back). */
  private deferIn(name: string): void {
    this.deferred.add(name);
    this.searchIndexes.delete(name);
  }

  /** Runs one collection operation atomically: its own IMMEDIATE transaction, or a savepoint inside ours. */
  private atomically<R>(fn: (db: StatementCache) => R, standalone: boolean): R {
    return (standalone ? this.atomic.immediate(fn) : this.atomic(fn)) as R;
  }

  private checkDeclared(name: string): void {
    if (!this.declared.has(name))
      throw new Error(`Collection ${name} is not declared; call readStore.declare() first`);
  }

  private checkNotInsideTransaction(): void {
    // Waiting for the lock our own transaction holds would deadlock: write through the session instead.
    if (this.inTransaction?.getStore()) {
      throw new Error(
        'Inside readStore.transaction(), write through the session it passes, not the store',
      );
    }
  }
}

function runOn(db: StatementCache, query: ReadQuery): unknown {
  let { sql, params } = query;
  if (query.unlessArrays && (db.get(query.unlessArrays.probe).get() as { a: number }).a) {
    ({ sql, params } = query.unlessArrays);
  }
  const statement = db.get(sql);
  return query.mode === 'get' ? statement.get(...params) : statement.all(...params);
}
