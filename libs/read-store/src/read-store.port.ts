/**
 * The ReadStore port: collections of JSON documents with a deliberately small, Mongo-shaped surface.
 * Query handlers use only this port, never a driver. Only projections write.
 */

/**
 * A JSON document with a string id. Feature documents declare their exact fields without an index
 * signature, so a misspelt field does not compile; `AnyDoc` is the loose default.
 */
export type Doc = { _id: string };
export type AnyDoc = Doc & Record<string, unknown>;

/*
 * Documents are plain JSON: store dates as ISO strings or epoch ms, never Date objects. Fields whose
 * value is `undefined` are dropped (in filters too: `{ group: undefined }` means "no constraint").
 * Values compare and sort in MongoDB's (BSON) order: null/missing < numbers < strings < objects <
 * arrays < booleans. Not part of this surface (see docs/decisions.md, "Read-store adapter parity"):
 * dotted paths through arrays (`items.name` with `items` an array), numeric path segments, sorting on
 * a field that holds arrays, and the order among objects of different shapes.
 */

/**
 * Mongo-shaped filter. Field paths may be dotted ("other.admin_info"). Supported operators:
 * equality, $eq $in $nin $ne $gt $gte $lt $lte $regex (string or RegExp, $options 'i') $exists, and
 * $or / $and (nested too). Comparisons stay within a type, as in MongoDB ($gt: 5 never matches a string);
 * their operands are numbers or strings. As in MongoDB, a condition on a field holding an array also
 * matches when one element satisfies it (`{ tags: 'x' }` matches `tags: ['x', 'y']`), `null` matches
 * null and missing, and `$ne`/`$nin` are the exact negations (they match missing fields). Refused as
 * MongoDB refuses them: a RegExp with flags together with `$options`, a RegExp under `$ne`/`$eq`.
 */
export type Filter = Record<string, unknown>;

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  /** `_id` ascending is always added as the last key, so pages never repeat or skip equal keys. */
  readonly sort?: SortSpec;
  readonly skip?: number;
  /** 0 or absent: no limit (MongoDB's meaning). */
  readonly limit?: number;
}

/**
 * $set/$inc/$unset/$max/$setOnInsert; field paths may be dotted. Refused before any write, as in
 * MongoDB: two paths that conflict (the same path under two operators, or `a` with `a.b`), `_id`,
 * a non-numeric $inc (operand or stored value).
 */
export interface Update {
  readonly $set?: Record<string, unknown>;
  readonly $inc?: Record<string, number>;
  readonly $unset?: Record<string, unknown>;
  readonly $max?: Record<string, number>;
  readonly $setOnInsert?: Record<string, unknown>;
}

export interface IndexSpec {
  readonly fields: SortSpec;
  /**
   * As in MongoDB (a non-sparse unique index): null and a missing field are one value, so two
   * documents lacking the field collide. Declare unique indexes only on fields every document has.
   */
  readonly unique?: boolean;
}

/** A write violated a unique index (SQLite constraint / MongoDB E11000). */
export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
  constructor(
    readonly collection: string,
    options?: { cause?: unknown },
  ) {
    super(`Duplicate key in collection ${collection}`, options);
  }
}

export interface CollectionSpec {
  readonly name: string;
  readonly indexes?: readonly IndexSpec[];
  /**
   * Fields searched by substring: a `$regex` whose pattern is a plain literal (metacharacters escaped,
   * `$options: 'i'` allowed) of three or more characters on one of them is answered through an index
   * instead of a scan; a shorter one tests the index's copy of the searched texts instead of each
   * document. Results are the same with or without it. SQLite: an FTS5 trigram index; MongoDB: no
   * index (an unanchored regex scans there; Atlas Search would be the production answer).
   */
  readonly search?: readonly string[];
  /**
   * Documents put once and seldom changed (a log's rows). SQLite: the indexed paths' keys are
   * computed from the document (virtual columns) instead of stored beside it in every row; an
   * update then rewrites each index of the row, which the stored keys spare the counters. The
   * documents are stored as SQLite's binary JSON, which computing a key reads without parsing.
   * MongoDB: no effect.
   */
  readonly writeOnce?: boolean;
}

export interface SumResult {
  /** The group key's value (null when grouping over everything). */
  readonly _id: unknown;
  readonly count: number;
  readonly sums: Record<string, number>;
}

export interface Collection<T extends Doc = AnyDoc> {
  get(id: string): Promise<T | null>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  findOne(filter: Filter): Promise<T | null>;
  count(filter?: Filter): Promise<number>;
  /** Insert or replace the whole document with this _id. */
  put(doc: T): Promise<void>;
  /** Apply `update` to the document with this id. With upsert, create it ({_id} + $setOnInsert + update) when missing. Returns whether a document matched or was created. */
  update(id: string, update: Update, options?: { upsert?: boolean }): Promise<boolean>;
  /** Apply `update` to every matching document; returns the number matched. */
  updateMany(filter: Filter, update: Update): Promise<number>;
  delete(id: string): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
  /** Grouped sums: per distinct value of `groupBy` (or one group when null), count and sums of numeric fields. */
  sum(filter: Filter, groupBy: string | null, fields: readonly string[]): Promise<SumResult[]>;
}

export interface DeclareOptions {
  /** Default true. False: create what is missing, drop and rebuild nothing. */
  readonly reconcileIndexes?: boolean;
}

/** The handle a transaction body writes through; the same surface as the store. */
export interface ReadStoreSession {
  collection<T extends Doc = AnyDoc>(name: string): Collection<T>;
}

export interface ReadStore extends ReadStoreSession {
  /**
   * Creates collections and their declared indexes (idempotent). Call before use. Indexes are
   * reconciled: one the declaration no longer lists is dropped, one whose definition changed is
   * rebuilt — unless `reconcileIndexes` is false: then missing collections and indexes are created
   * and nothing is dropped (what every process but the elected projector does on a shared server).
   */
  declare(specs: readonly CollectionSpec[], options?: DeclareOptions): Promise<void>;
  /**
   * Runs `body` atomically: all or none of its writes land. SQLite: one transaction; writes from
   * outside wait until it ends. MongoDB: a transaction when the server is a replica set, otherwise
   * the writes apply one by one (callers then keep writes idempotent).
   */
  transaction<R>(body: (session: ReadStoreSession) => Promise<R>): Promise<R>;
  /** Whether `transaction` is truly atomic on this adapter. */
  readonly atomicTransactions: boolean;
  /**
   * Drops these collections' documents (keeps declared indexes) without deleting row by row.
   * An undeclared one goes whole (SQLite: its table, whatever its layout); declare() makes it anew.
   */
  drop(names: readonly string[]): Promise<void>;
  /**
   * Optional, for an offline rebuild from scratch (SQLite): these declared collections' non-unique
   * and search indexes are dropped until `buildIndexes()`, which builds each once from all the rows.
   * Unique indexes stay. The store may defer other per-row upkeep with them (SQLite: its row
   * counters and computed key columns). Queries still answer meanwhile (a query inside a
   * transaction that may use an index builds its collection's first). The next `declare()` creates
   * whatever is still missing.
   */
  deferIndexes?(names: readonly string[]): Promise<void>;
  /** Builds the indexes `deferIndexes()` dropped. */
  buildIndexes?(): Promise<void>;
  close(): Promise<void>;
}
