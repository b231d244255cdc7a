import type {
  ClientSession,
  Collection as DriverCollection,
  Document,
  Filter as DriverFilter,
  Sort,
  UpdateFilter,
} from 'mongodb';
import { MongoServerError } from 'mongodb';
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

/** Pass-through to the driver; `_id`s are strings. With a session, every call joins its transaction. */
export class MongoCollection<T extends Doc = AnyDoc> implements Collection<T> {
  constructor(
    private readonly name: string,
    private readonly driver: DriverCollection<Document>,
    private readonly session: ClientSession | undefined,
    private readonly check: () => void,
  ) {}

  async get(id: string): Promise<T | null> {
    this.check();
    return (await this.driver.findOne(byId(id), { session: this.session })) as T | null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    this.check();
    const docs = await this.driver
      .find(filter as DriverFilter<Document>, {
        session: this.session,
        ...(options.sort && Object.keys(options.sort).length > 0
          ? { sort: withIdTieBreaker(options.sort) }
          : {}),
        ...(options.skip ? { skip: options.skip } : {}),
        ...(options.limit ? { limit: options.limit } : {}),
      })
      .toArray();
    return docs as unknown as T[];
  }

  async findOne(filter: Filter): Promise<T | null> {
    this.check();
    return (await this.driver.findOne(filter as DriverFilter<Document>, {
      session: this.session,
    })) as T | null;
  }

  async count(filter: Filter = {}): Promise<number> {
    this.check();
    // Without a filter the collection's metadata answers (estimatedDocumentCount, no scan): the
    // totals of unfiltered console lists. It is the count the server keeps, not a count of the
    // documents: after an unclean shutdown it may be off until the collection is validated, and on
    // a sharded cluster it can include orphaned documents during a migration. countDocuments is an
    // aggregation over every matching document, and the only count allowed inside a transaction.
    if (!this.session && Object.values(filter).every((v) => v === undefined))
      return this.driver.estimatedDocumentCount();
    return this.driver.countDocuments(filter, { session: this.session });
  }

  async put(doc: T): Promise<void> {
    this.check();
    await this.writing(() =>
      this.driver.replaceOne(byId(doc._id), doc, { upsert: true, session: this.session }),
    );
  }

  async update(id: string, update: Update, options: { upsert?: boolean } = {}): Promise<boolean> {
    this.check();
    const cleaned = withoutEmptyOperators(update);
    if (!cleaned) {
      // MongoDB rejects an update with no operators: treat it as an existence check (or a bare insert).
      if (!options.upsert)
        return (
          (await this.driver.countDocuments(byId(id), { limit: 1, session: this.session })) > 0
        );
      return this.update(id, { $setOnInsert: { _id: id } }, options);
    }
    const result = await this.writing(() =>
      this.driver.updateOne(byId(id), cleaned, {
        upsert: options.upsert ?? false,
        session: this.session,
      }),
    );
    return result.matchedCount > 0 || result.upsertedCount > 0;
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    this.check();
    const cleaned = withoutEmptyOperators(update);
    if (!cleaned) return this.count(filter);
    const result = await this.writing(() =>
      this.driver.updateMany(filter as DriverFilter<Document>, cleaned, { session: this.session }),
    );
    return result.matchedCount;
  }

  async delete(id: string): Promise<boolean> {
    this.check();
    return (await this.driver.deleteOne(byId(id), { session: this.session })).deletedCount > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.check();
    return (await this.driver.deleteMany(filter, { session: this.session })).deletedCount;
  }

  async sum(
    filter: Filter,
    groupBy: string | null,
    fields: readonly string[],
  ): Promise<SumResult[]> {
    this.check();
    // Output field names cannot contain dots, so sums travel as s0..sN and are renamed afterwards.
    const group: Document = { _id: groupBy === null ? null : `$${groupBy}`, count: { $sum: 1 } };
    fields.forEach((field, i) => (group[`s${i}`] = { $sum: `$${field}` }));
    const rows = await this.driver
      .aggregate([{ $match: filter }, { $group: group }, { $sort: { _id: 1 } }], {
        session: this.session,
      })
      .toArray();
    return rows.map((row) => ({
      _id: (row['_id'] as unknown) ?? null,
      count: Number(row['count']),
      sums: Object.fromEntries(fields.map((field, i) => [field, Number(row[`s${i}`] ?? 0)])),
    }));
  }

  private async writing<R>(write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 11000) {
        throw new DuplicateKeyError(this.name, { cause: error });
      }
      throw error;
    }
  }
}

/** `_id` ascending as the last sort key, so pages never repeat or skip documents with equal keys. */
function withIdTieBreaker(sort: Record<string, 1 | -1>): Sort {
  return '_id' in sort ? sort : { ...sort, _id: 1 };
}

function byId(id: string): DriverFilter<Document> {
  return { _id: id } as unknown as DriverFilter<Document>;
}

/** Drops undefined values and empty operators; null when nothing is left. */
function withoutEmptyOperators(update: Update): UpdateFilter<Document> | null {
  const cleaned: Record<string, Record<string, unknown>> = {};
  for (const [op, fields] of Object.entries(update)) {
    if (!fields) continue;
    const defined = Object.entries(fields as Record<string, unknown>).filter(
      ([, v]) => v !== undefined,
    );
    if (defined.length > 0) cleaned[op] = Object.fromEntries(defined);
  }
  return Object.keys(cleaned).length > 0 ? cleaned : null;
}
