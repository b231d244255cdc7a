import type { Document } from 'mongodb';
import type { LeaseCollection, LeaseDoc } from '../mongo/mongo-lease';

type Row = Record<string, unknown>;

/**
 * An in-process stand-in for the `leases` collection, answering the calls MongoLease makes the way
 * MongoDB does: equality, `$or` and `$expr` comparisons against `$$NOW` in filters, update
 * pipelines of `$set` with `$add` / `$ifNull`, upserts that collide on `_id` with error 11000.
 * `now` is the server's clock (injectable). Anything else is refused, so a changed query shows.
 */
export function fakeLeaseCollection(
  now: () => number,
): LeaseCollection & { rows: Map<string, Row> } {
  const rows = new Map<string, Row>();

  const value = (expr: unknown, row: Row): unknown => {
    if (expr === '$$NOW') return new Date(now());
    if (typeof expr === 'string' && expr.startsWith('$')) return row[expr.slice(1)];
    if (expr && typeof expr === 'object' && !(expr instanceof Date)) {
      const [op, args] = Object.entries(expr)[0] as [string, unknown[]];
      const [a, b] = args.map((arg) => value(arg, row));
      if (op === '$add')
        return a instanceof Date
          ? new Date(a.getTime() + (b as number))
          : (a as number) + (b as number);
      if (op === '$ifNull') return a ?? b;
      const x = a instanceof Date ? a.getTime() : a;
      const y = b instanceof Date ? b.getTime() : b;
      if (x === undefined || y === undefined) return false;
      if (op === '$lte') return (x as number) <= (y as number);
      if (op === '$gt') return (x as number) > (y as number);
      throw new Error(`fake leases: operator ${op} not supported`);
    }
    return expr;
  };

  const matches = (filter: Document, row: Row): boolean =>
    Object.entries(filter).every(([key, condition]) => {
      if (key === '$or') return (condition as Document[]).some((f) => matches(f, row));
      if (key === '$expr') return value(condition, row) === true;
      return condition === null ? row[key] == null : row[key] === condition;
    });

  const apply = (update: Document | Document[], row: Row): void => {
    const stages = (Array.isArray(update) ? update : [update]) as Document[];
    for (const stage of stages) {
      const set = (stage as { $set?: Document }).$set;
      if (!set || Object.keys(stage).length !== 1) throw new Error('fake leases: $set only');
      const computed = Object.entries(set).map(([k, v]) => [k, value(v, row)] as const);
      for (const [k, v] of computed) row[k] = v;
    }
  };

  const find = (filter: Document): Row | undefined =>
    [...rows.values()].find((row) => matches(filter, row));

  const fake = {
    rows,
    findOneAndUpdate(filter: Document, update: Document[], options: { upsert?: boolean }) {
      let row = find(filter);
      if (!row) {
        if (!options.upsert) return Promise.resolve(null);
        const id = filter['_id'] as string;
        if (rows.has(id))
          return Promise.reject(Object.assign(new Error('E11000'), { code: 11000 }));
        row = { _id: id };
        rows.set(id, row);
      }
      apply(update, row);
      return Promise.resolve({ ...row } as unknown as LeaseDoc);
    },
    updateOne(filter: Document, update: Document | Document[]) {
      const row = find(filter);
      if (row) apply(update, row);
      return Promise.resolve({ matchedCount: row ? 1 : 0 });
    },
    findOne(filter: Document) {
      const row = find(filter);
      return Promise.resolve(row ? ({ ...row } as unknown as LeaseDoc) : null);
    },
  };
  return fake as unknown as LeaseCollection & { rows: Map<string, Row> };
}
