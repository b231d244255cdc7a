import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import type {
  Collection,
  CollectionSpec,
  AnyDoc,
  Doc,
  ReadStore,
  ReadStoreSession,
} from '../read-store.port';
import { indexName } from '../shared/index-name';
import { AsyncMutex } from './async-mutex';
import { registerRegexp } from './regexp-function';
import { fieldExpr, tableName } from './sql-names';
import { SqliteCollection, type SqliteAccess } from './sqlite-collection';
import { StatementCache } from './statement-cache';

/**
 * ReadStore on one SQLite file (or ':memory:'). One table per collection, `(id TEXT PRIMARY KEY, doc
 * TEXT)` with the document as JSON; filters run as SQL over json_extract, indexes are expression
 * indexes. better-sqlite3 is synchronous but `transaction` bodies are async, so an async mutex makes
 * transactions and out-of-transaction writes take turns on the single write connection. Reads from a
 * file go through a second, read-only connection: WAL gives them the last committed state without
 * waiting. (':memory:' cannot be shared: there reads use the write connection and can see a running
 * transaction's writes.)
 */
export class SqliteReadStore implements ReadStore {
  readonly atomicTransactions = true;

  private readonly writer: Database.Database;
  private readonly reader: Database.Database;
  private readonly writes: StatementCache;
  private readonly reads: StatementCache;
  private readonly mutex = new AsyncMutex();
  private readonly inTransaction = new AsyncLocalStorage<true>();
  private readonly declared = new Set<string>();
  private readonly storeAccess: SqliteAccess;

  constructor(readonly path: string) {
    this.writer = new Database(path);
    this.writer.pragma('journal_mode = WAL');
    this.writer.pragma('synchronous = NORMAL'); // WAL-safe; read models are rebuildable anyway
    registerRegexp(this.writer);
    const inMemory = path === ':memory:' || path === '';
    this.reader = inMemory
      ? this.writer
      : new Database(path, { readonly: true, fileMustExist: true });
    if (!inMemory) registerRegexp(this.reader);
    this.writes = new StatementCache(this.writer);
    this.reads = inMemory ? this.writes : new StatementCache(this.reader);
    this.storeAccess = {
      read: async (name, fn) => {
        this.checkDeclared(name);
        return fn(this.reads);
      },
      write: (name, fn) => {
        this.checkDeclared(name);
        this.checkNotInsideTransaction();
        return this.mutex.run(() => this.atomically(fn, true));
      },
    };
  }

  collection<T extends Doc = AnyDoc>(name: string): Collection<T> {
    return new SqliteCollection<T>(name, this.storeAccess);
  }

  async declare(specs: readonly CollectionSpec[]): Promise<void> {
    this.checkNotInsideTransaction();
    await this.mutex.run(() =>
      this.writer.transaction(() => {
        for (const spec of specs) {
          const table = tableName(spec.name);
          this.writer.exec(
            `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`,
          );
          for (const index of spec.indexes ?? []) {
            const columns = Object.entries(index.fields).map(([path, dir]) => {
              if (dir !== 1 && dir !== -1)
                throw new Error(`Index direction for ${path} must be 1 or -1`);
              return `${fieldExpr(path)} ${dir === 1 ? 'ASC' : 'DESC'}`;
            });
            const unique = index.unique ? 'UNIQUE ' : '';
            const name = indexName(spec.name, index);
            this.writer.exec(
              `CREATE ${unique}INDEX IF NOT EXISTS "${name}" ON ${table} (${columns.join(', ')})`,
            );
          }
        }
      })(),
    );
    for (const spec of specs) this.declared.add(spec.name);
  }

  async transaction<R>(body: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    this.checkNotInsideTransaction();
    return this.mutex.run(async () => {
      let open = true;
      const sessionAccess: SqliteAccess = {
        read: async (name, fn) => {
          this.checkDeclared(name);
          if (!open) throw new Error('Read-store session used after its transaction ended');
          return fn(this.writes);
        },
        write: async (name, fn) => {
          this.checkDeclared(name);
          if (!open) throw new Error('Read-store session used after its transaction ended');
          return this.atomically(fn, false);
        },
      };
      const session: ReadStoreSession = {
        collection: <T extends Doc = AnyDoc>(name: string) =>
          new SqliteCollection<T>(name, sessionAccess),
      };
      this.writer.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.inTransaction.run(true, () => body(session));
        this.writer.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        throw error;
      } finally {
        open = false;
      }
    });
  }

  async drop(names: readonly string[]): Promise<void> {
    this.checkNotInsideTransaction();
    await this.mutex.run(() =>
      this.writer.transaction(() => {
        for (const name of names) {
          const exists = this.writes
            .get(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
            .get(name);
          if (exists) this.writer.exec(`DELETE FROM ${tableName(name)}`);
        }
      })(),
    );
  }

  async close(): Promise<void> {
    // Let a running transaction finish; anything queued after close fails on the closed connection.
    await this.mutex.run(() => {
      if (this.reader !== this.writer && this.reader.open) this.reader.close();
      if (this.writer.open) this.writer.close();
    });
  }

  /** Runs one collection operation atomically: its own IMMEDIATE transaction, or a savepoint inside ours. */
  private atomically<R>(fn: (db: StatementCache) => R, standalone: boolean): R {
    const wrapped = this.writer.transaction(() => fn(this.writes));
    return standalone ? wrapped.immediate() : wrapped();
  }

  private checkDeclared(name: string): void {
    if (!this.declared.has(name))
      throw new Error(`Collection ${name} is not declared; call readStore.declare() first`);
  }

  private checkNotInsideTransaction(): void {
    // Waiting for the lock our own transaction holds would deadlock: write through the session instead.
    if (this.inTransaction.getStore()) {
      throw new Error(
        'Inside readStore.transaction(), write through the session it passes, not the store',
      );
    }
  }
}
