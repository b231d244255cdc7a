import type {
  AnyDoc,
  Collection,
  Doc,
  Filter,
  FindOptions,
  SumResult,
  Update,
} from '../read-store.port';
import { DuplicateKeyError } from '../read-store.port';
import { applyUpdate, checkUpdate } from '../documents/apply-update';
import { wantsIndexes } from './deferred-indexes';
import { filterToSql, sortToSql, type FilterSql } from './filter-to-sql';
import type { GuardedFilters } from './guarded-filter';
import type { SearchIndex } from './search-narrowing';
import type { ReadQuery } from './read-pool';
import {
  COUNTS_TABLE,
  DOC_TEXT,
  NULL_KEY,
  fieldExpr,
  keyExprOf,
  keySql,
  splitPath,
  typeExpr,
} from './sql-names';
import type { StatementCache } from './statement-cache';
import { byIdStatements, type ByIdStatements } from './by-id-statements';

/**
 * How a collection reaches the database. Reads are plain SQL so they can run on another thread (the
 * read pool) outside a transaction, or on the write connection inside one; writes run a function on
 * the write connection, directly inside a transaction, through the write lock outside.
 */
export interface SqliteAccess {
  read(collection: string, query: ReadQuery): Promise<unknown>;
  /**
   * `oneStatement`: `fn` writes with a single statement (SQLite makes each statement atomic), so
   * inside a transaction it needs no savepoint of its own.
   */
  write<R>(collection: string, fn: (db: StatementCache) => R, oneStatement?: boolean): Promise<R>;
  /** The collection's trigram index, when its spec declared search fields. */
  search(collection: string): SearchIndex | undefined;
  /** The leading paths of the collection's declared indexes. */
  indexed(collection: string): ReadonlySet<string> | undefined;
  /** The key column of each indexed path (written with every document, compared by filters). */
  keys(collection: string): ReadonlyMap<string, string> | undefined;
  /**
   * Whether the collection is write-once (CollectionSpec.writeOnce): its key columns are computed
   * from the document, which is written as binary JSON (DOC_TEXT).
   */
  writeOnce(collection: string): boolean;
  /** Whether the collection's row in the counts table is kept (not during a deferred rebuild). */
  counted(collection: string): boolean;
  /** A query that may want secondary indexes: builds the collection's deferred ones first. */
  useIndexes(collection: string): void;
  /** The store's compiled guarded-write filters (one collection object is made per write). */
  readonly filters: GuardedFilters;
}

/** Every update is checked once, on entry, before it is applied to any row. */
const CHECKED = { checked: true } as const;

interface Row {
  id: string;
  doc: string;
}

export class SqliteCollection<T extends Doc = AnyDoc> implements Collection<T> {
  private readonly byId: ByIdStatements;

  constructor(
    private readonly name: string,
    private readonly access: SqliteAccess,
  ) {
    this.byId = byIdStatements(name);
  }

  async get(id: string): Promise<T | null> {
    const row = (await this.access.read(this.name, {
      sql: this.byId.select,
      params: [id],
      mode: 'get',
    })) as Row | undefined;
    return row ? toDoc<T>(row) : null;
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<T[]> {
    this.indexesFor(filter, options);
    const page = pageToSql(options);
    const sort = sortToSql(options.sort, this.access.keys(this.name));
    // A deep page walks the skipped rows in the subquery, where SQLite can stay on the index and
    // never reads their documents; only the page's own rows are loaded.
    const select = (where: FilterSql) => ({
      sql:
        page.skip > 0 && sort
          ? `SELECT id, ${DOC_TEXT} AS doc FROM ${this.byId.table} WHERE rowid IN (SELECT rowid FROM ${this.byId.table} WHERE ${where.sql}${sort}${page.sql})${sort}`
          : `SELECT id, ${DOC_TEXT} AS doc FROM ${this.byId.table} WHERE ${where.sql}${sort}${page.sql}`,
      params: [...where.params, ...page.params],
    });
    const query = this.scalarFirst(filter, select, 'all');
    const rows = (await this.access.read(this.name, query)) as Row[];
    return rows.map((row) => toDoc<T>(row));
  }

  /**
   * The query over `filter` as `build` frames it. The array-element branch of a condition on an
   * indexed path is an OR, and an OR keeps SQLite off the index: it gathers and sorts the matches
   * instead of walking the index in order (a deep page of one user's logs), or scans a sum's rows
   * (the log stat over a time range). Indexed fields rarely hold arrays: the plain query runs unless
   * an index seek finds an array on one of those paths, in which case the full one does (one read
   * snapshot for both, in the worker).
   */
  private scalarFirst(
    filter: Filter | undefined,
    build: (where: FilterSql) => { sql: string; params: FilterSql['params'] },
    mode: ReadQuery['mode'],
  ): ReadQuery {
    const full = this.where(filter);
    const indexed = this.access.indexed(this.name);
    if (indexed && indexed.size > 0) {
      const plain = filterToSql(filter, {
        search: this.access.search(this.name),
        keys: this.access.keys(this.name),
        indexed,
        scalar: indexed,
      });
      if (plain.assumedScalar.length > 0)
        return {
          ...build(plain),
          mode,
          unlessArrays: { probe: this.arrayProbe(plain.assumedScalar), ...build(full) },
        };
    }
    return { ...build(full), mode };
  }

  /** One row `{a: 1}` when some document holds an array at one of these (indexed) paths. */
  private arrayProbe(paths: readonly string[]): string {
    const keys = this.access.keys(this.name);
    const seeks = paths.map((path) => {
      const key = keySql(path, keys);
      return `EXISTS (SELECT 1 FROM ${this.byId.table} WHERE ${key} >= x'02' AND ${key} < x'03')`;
    });
    return `SELECT (${seeks.join(' OR ')}) AS a`;
  }

  async findOne(filter: Filter): Promise<T | null> {
    const [first] = await this.find(filter, { limit: 1 });
    return first ?? null;
  }

  async count(filter?: Filter): Promise<number> {
    this.indexesFor(filter);
    // Without a filter, the trigger-kept counter answers without walking the table.
    const query: ReadQuery =
      this.where(filter).sql === '1' && this.access.counted(this.name)
        ? {
            sql: `SELECT n FROM ${COUNTS_TABLE} WHERE collection = ?`,
            params: [this.name],
            mode: 'get',
          }
        : this.scalarFirst(
            filter,
            (where) => ({
              sql: `SELECT COUNT(*) AS n FROM ${this.byId.table} WHERE ${where.sql}`,
              params: where.params,
            }),
            'get',
          );
    const row = (await this.access.read(this.name, query)) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  // Not `async`: the write's own promise is returned, without a second one around it (a log row
  // per receipt in a rebuild). Both accesses' `write` are async, so a refusal is a rejection.
  put(doc: T): Promise<void> {
    return this.access.write(
      this.name,
      (db) => {
        this.upsertRow(db, doc._id, bodyJson(doc));
      },
      true,
    );
  }

  async update(id: string, update: Update, options: { upsert?: boolean } = {}): Promise<boolean> {
    checkUpdate(update); // refused like MongoDB does, whether or not a document matches
    return this.access.write(
      this.name,
      (db) => {
        const row = db.get(this.byId.select).get(id) as Row | undefined;
        if (!row && !options.upsert) return false;
        const body = row ? (JSON.parse(row.doc) as Record<string, unknown>) : {};
        const before = row ? this.keyValues(body) : undefined;
        applyUpdate(body, update, !row, CHECKED);
        this.upsertRow(db, id, body, before);
        return true;
      },
      true,
    );
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    checkUpdate(update);
    this.indexesFor(filter);
    const where = this.where(filter);
    return this.access.write(
      this.name,
      (db) => {
        const select = this.access.filters.selectDocuments(this.name, this.byId.table, where);
        const rows = db.get(select).all(...where.params) as Row[];
        for (const row of rows) {
          const body = JSON.parse(row.doc) as Record<string, unknown>;
          const before = this.keyValues(body);
          applyUpdate(body, update, false, CHECKED);
          this.upsertRow(db, row.id, body, before);
        }
        return rows.length;
      },
      // By `_id` (a guarded update): one row at most, so one writing statement.
      typeof filter['_id'] === 'string',
    );
  }

  async delete(id: string): Promise<boolean> {
    return this.access.write(this.name, (db) => db.get(this.byId.delete).run(id).changes > 0, true);
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.indexesFor(filter);
    const where = this.where(filter);
    return this.access.write(
      this.name,
      (db) =>
        db.get(`DELETE FROM ${this.byId.table} WHERE ${where.sql}`).run(...where.params).changes,
      true,
    );
  }

  async sum(
    filter: Filter,
    groupBy: string | null,
    fields: readonly string[],
  ): Promise<SumResult[]> {
    this.indexesFor(filter, groupBy === null ? undefined : { sort: { [groupBy]: 1 } });
    // Only numbers are summed (MongoDB's $sum ignores strings and booleans too). An indexed field is
    // summed from its key column, which holds the number itself (null and missing are NULL_KEY, below
    // every JSON number): an index holding the filter's and the sum's columns answers without
    // reading a document.
    const keys = this.access.keys(this.name);
    const sums = fields.map((f, i) => {
      const column = keys?.get(f);
      return column
        ? `, SUM(CASE WHEN typeof(${column}) IN ('integer', 'real') AND ${column} > ${NULL_KEY} THEN ${column} END) AS s${i}`
        : `, SUM(CASE WHEN ${typeExpr(f)} IN ('integer', 'real') THEN ${fieldExpr(f)} END) AS s${i}`;
    });
    // Grouped on the BSON key, so true and 1 are different groups and groups come in BSON order.
    const key =
      groupBy === null
        ? 'NULL AS k, NULL AS t'
        : `${fieldExpr(groupBy)} AS k, ${typeExpr(groupBy)} AS t, ${keySql(groupBy, keys)} AS g`;
    const group = groupBy === null ? '' : ' GROUP BY g ORDER BY g';
    const query = this.scalarFirst(
      filter,
      (where) => ({
        sql: `SELECT ${key}, COUNT(*) AS c${sums.join('')} FROM ${this.byId.table} WHERE ${where.sql}${group}`,
        params: where.params,
      }),
      'all',
    );
    const rows = (await this.access.read(this.name, query)) as Array<Record<string, unknown>>;
    return rows
      .filter((row) => row['c'] !== 0) // an ungrouped aggregate over nothing still yields a row
      .map((row) => ({
        _id: groupKey(row['k'], row['t']),
        count: row['c'] as number,
        sums: Object.fromEntries(fields.map((f, i) => [f, (row[`s${i}`] as number | null) ?? 0])),
      }));
  }

  /** Deferred indexes (an offline rebuild) are built before a query that may use them. */
  private indexesFor(filter: Filter | undefined, options?: FindOptions): void {
    if (wantsIndexes(filter, options)) this.access.useIndexes(this.name);
  }

  private where(filter: Filter | undefined): FilterSql {
    return this.access.filters.where(this.name, filter, {
      search: this.access.search(this.name),
      keys: this.access.keys(this.name),
      indexed: this.access.indexed(this.name),
    });
  }

  /** The indexed paths' values as JSON text, to tell whether an update changed any of them. */
  private keyValues(body: Record<string, unknown>): string[] | undefined {
    const keys = this.access.keys(this.name);
    if (!keys || keys.size === 0) return undefined;
    return [...keys.keys()].map((path) => String(JSON.stringify(valueAt(body, path))));
  }

  /**
   * Writes the document and its key columns. `before` (the indexed values of the row as it was read)
   * lets an update that changed none of them write the document alone, which touches no index.
   * `body` may come as its JSON text already (a put, which has no `before`).
   */
  private upsertRow(
    db: StatementCache,
    id: string,
    body: Record<string, unknown> | string,
    before?: readonly string[],
  ): void {
    if (typeof id !== 'string' || id === '')
      throw new Error(`Document _id must be a non-empty string`);
    const doc = typeof body === 'string' ? body : JSON.stringify(body);
    try {
      // Its key columns are computed from the document: none to bind.
      if (this.access.writeOnce(this.name)) {
        db.get(this.byId.upsertBinary).run(id, doc);
        return;
      }
      const keys = this.access.keys(this.name);
      if (!keys || keys.size === 0) {
        db.get(this.byId.upsert).run(id, doc);
      } else if (before && sameValues(before, this.keyValues(body as Record<string, unknown>)!)) {
        db.get(this.byId.updateDoc).run(doc, id);
      } else {
        db.get(upsertWithKeys(this.byId.table, keys)).run({ id, doc });
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new DuplicateKeyError(this.name, { cause: error });
      }
      throw error;
    }
  }
}

/** The upsert of a document alone, its value given as `value` (a parameter, or a function of one). */
/** Built once per declared key set (a collection's map lives until it is declared again). */
const upserts = new WeakMap<ReadonlyMap<string, string>, string>();

/** The upsert that writes the document and computes its key columns from it, as keyExpr would. */
function upsertWithKeys(table: string, keys: ReadonlyMap<string, string>): string {
  let sql = upserts.get(keys);
  if (!sql) {
    const columns = [...keys.values()];
    const values = [...keys.keys()].map((path) => keyExprOf('@doc', path));
    sql =
      `INSERT INTO ${table} (id, doc, ${columns.join(', ')}) VALUES (@id, @doc, ${values.join(', ')}) ` +
      `ON CONFLICT(id) DO UPDATE SET doc = excluded.doc, ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    upserts.set(keys, sql);
  }
  return sql;
}

const segmentsOf = new Map<string, readonly string[]>();

/** The value at a dotted path as json_extract finds it: through objects only, never into arrays. */
function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let segments = segmentsOf.get(path);
  if (!segments) segmentsOf.set(path, (segments = splitPath(path)));
  let value: unknown = doc;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = Object.prototype.hasOwnProperty.call(value, segment)
      ? (value as Record<string, unknown>)[segment]
      : undefined;
  }
  return value;
}

const sameValues = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((value, i) => value === b[i]);

function toDoc<T extends Doc>(row: Row): T {
  return { _id: row.id, ...(JSON.parse(row.doc) as Record<string, unknown>) } as T;
}

/**
 * The document's JSON without `_id`. Documents are built with `_id` first, so its text is cut off
 * the whole document's JSON instead of copying the object without it (~3 % of a rebuild's CPU).
 */
function bodyJson(doc: Doc): string {
  const json = JSON.stringify(doc);
  if (typeof doc._id === 'string') {
    const head = `{"_id":${JSON.stringify(doc._id)}`;
    if (json.startsWith(head)) {
      const next = json[head.length];
      if (next === '}') return '{}';
      if (next === ',') return `{${json.slice(head.length + 1)}`;
    }
  }
  return JSON.stringify(withoutId(doc));
}

function withoutId(doc: Doc): Record<string, unknown> {
  const { _id: _ignored, ...rest } = doc;
  return rest;
}

/** json_extract flattens booleans to 1/0 and objects to text; the json_type restores them. */
function groupKey(value: unknown, type: unknown): unknown {
  if (type === 'true') return true;
  if (type === 'false') return false;
  if ((type === 'object' || type === 'array') && typeof value === 'string')
    return JSON.parse(value) as unknown;
  return value ?? null;
}

function pageToSql(options: FindOptions): { sql: string; params: number[]; skip: number } {
  const skip = checkCount('skip', options.skip ?? 0);
  // limit 0 means "no limit", as in MongoDB.
  const limit = checkCount('limit', options.limit ?? 0);
  if (skip === 0 && limit === 0) return { sql: '', params: [], skip };
  return { sql: ' LIMIT ? OFFSET ?', params: [limit === 0 ? -1 : limit, skip], skip };
}

function checkCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer`);
  return value;
}
