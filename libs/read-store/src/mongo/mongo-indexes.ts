import type { Collection as DriverCollection, Document } from 'mongodb';
import { MongoServerError } from 'mongodb';
import type { CollectionSpec } from '../read-store.port';
import { DuplicateKeyError } from '../read-store.port';
import { indexName } from '../documents/index-name';

/** Server codes that mean "someone else already did it" when several processes declare at once. */
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;
const INDEX_OPTIONS_CONFLICT = 85;
const INDEX_KEY_SPECS_CONFLICT = 86;
const DUPLICATE_KEY = 11000;

interface ListedIndex {
  readonly name: string;
  readonly key: Record<string, unknown>;
  readonly unique?: boolean;
  readonly sparse?: boolean;
  readonly partialFilterExpression?: unknown;
}

interface WantedIndex {
  readonly key: Record<string, 1 | -1>;
  readonly unique: boolean;
}

/**
 * Brings a collection's indexes to the declared ones. With `reconcile`, exactly those (listIndexes):
 * an index the declaration no longer lists is dropped, one whose key or options changed is dropped
 * and built again. Without it, missing ones are created and nothing is dropped or rebuilt (what a
 * process that does not own the schema does on a shared server).
 *
 * Several processes may declare at once: an index another one dropped first (IndexNotFound,
 * NamespaceNotFound) is gone as wanted; one another created first under our name with another
 * definition (IndexOptionsConflict, IndexKeySpecsConflict) is left to the reconciling process.
 *
 * Unique indexes are plain ones: MongoDB indexes a missing field as null, so null and missing are
 * one value (the SQLite adapter does the same). Non-unique indexes end with `_id`, like the SQLite
 * ones, so a sort ending with the `_id` tie-breaker is answered in index order.
 */
export async function declareIndexes(
  driver: DriverCollection<Document>,
  spec: CollectionSpec,
  reconcile: boolean,
): Promise<void> {
  const wanted = wantedIndexes(spec);
  const existing = (await driver.listIndexes().toArray()) as ListedIndex[];
  const present = new Set<string>();
  for (const index of existing) {
    if (index.name === '_id_') continue;
    const want = wanted.get(index.name);
    if (!reconcile || (want !== undefined && sameDefinition(index, want))) {
      present.add(index.name);
      continue;
    }
    await ignoring([INDEX_NOT_FOUND, NAMESPACE_NOT_FOUND], () => driver.dropIndex(index.name));
  }
  for (const [name, want] of wanted) {
    if (present.has(name)) continue;
    try {
      await ignoring([INDEX_OPTIONS_CONFLICT, INDEX_KEY_SPECS_CONFLICT], () =>
        driver.createIndex(want.key, { name, ...(want.unique ? { unique: true } : {}) }),
      );
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY)
        throw new DuplicateKeyError(spec.name, { cause: error });
      throw error;
    }
  }
}

function wantedIndexes(spec: CollectionSpec): Map<string, WantedIndex> {
  return new Map(
    (spec.indexes ?? []).map((index) => {
      const key: Record<string, 1 | -1> = { ...index.fields };
      if (!index.unique && !('_id' in key)) key['_id'] = 1;
      return [indexName(spec.name, index), { key, unique: index.unique === true }] as const;
    }),
  );
}

function sameDefinition(index: ListedIndex, want: WantedIndex): boolean {
  return (
    sameKey(index.key, want.key) &&
    (index.unique === true) === want.unique &&
    !index.sparse &&
    index.partialFilterExpression === undefined
  );
}

/** Same fields, same order, same directions (the server may report 1 as 1.0 or Int32). */
function sameKey(actual: Record<string, unknown>, wanted: Record<string, 1 | -1>): boolean {
  const a = Object.entries(actual).map(([field, dir]) => [field, Number(dir)]);
  return JSON.stringify(a) === JSON.stringify(Object.entries(wanted));
}

async function ignoring(codes: readonly number[], run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof MongoServerError && codes.includes(Number(error.code)))) throw error;
  }
}
