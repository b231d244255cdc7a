import type { ReadStoreSession, Update } from '../read-store.port';
import { isPathUnder } from '../field-path';

/** The field a guarded update checks and records: the `$all` commit of the last event applied. */
export const SOURCE_POSITION = 'source_position';

export interface BufferedUpdateOptions {
  readonly upsert?: boolean;
  /**
   * The event's `$all` commit. The write then applies only while the document's `source_position`
   * is below it, and records it: at most once per document even without atomic transactions.
   */
  readonly position?: number;
}

type Operator = '$set' | '$inc' | '$unset' | '$max' | '$setOnInsert';
const OPERATORS: readonly Operator[] = ['$set', '$inc', '$unset', '$max', '$setOnInsert'];

interface Pending {
  readonly collection: string;
  readonly id: string;
  readonly update: { -readonly [K in Operator]?: Update[K] };
  readonly upsert: boolean;
  /** Guarded writes: positions of the first and last event merged into this write. */
  readonly first: number | undefined;
  last: number | undefined;
}

/**
 * A batch-scoped write buffer: updates to the same document merge into one write when applying them
 * one after the other would give the same document ($inc sums, $max keeps the larger, the later $set
 * wins). A batch of usage receipts then costs one read-modify-write per user, token or channel
 * instead of one per receipt. Updates that would not merge exactly (one operator on a field another
 * touches, an upsert after a plain update, a new $setOnInsert) start a new write for that document;
 * per document the writes keep their order, and documents are independent of each other.
 *
 * Merging is for atomic transactions only: on a store without them a crash may land part of a
 * batch, and a replayed batch may be cut differently, so a merged guard would skip events. With
 * `coalesce` false every update stays its own guarded write, as if applied one by one.
 */
export class BatchWrites {
  /**
   * Per collection, per document id, its writes in order. Two maps rather than one keyed by a
   * joined string: a joined key is a new string to hash for every update of every receipt.
   */
  private readonly pending = new Map<string, Map<string, Pending[]>>();

  constructor(private readonly coalesce: boolean) {}

  update(
    collection: string,
    id: string,
    update: Update,
    options: BufferedUpdateOptions = {},
  ): void {
    const upsert = options.upsert === true;
    if (upsert && options.position !== undefined)
      throw new Error('A guarded update cannot upsert: create the document first');
    let documents = this.pending.get(collection);
    if (!documents) this.pending.set(collection, (documents = new Map<string, Pending[]>()));
    const writes = documents.get(id);
    const previous = writes?.[writes.length - 1];
    if (this.coalesce && previous && merge(previous, update, upsert, options.position)) return;
    const next: Pending = {
      collection,
      id,
      update: copy(update),
      upsert,
      first: options.position,
      last: options.position,
    };
    if (writes) writes.push(next);
    else documents.set(id, [next]);
  }

  /** Writes everything buffered through `session`, then starts empty. */
  async flush(session: ReadStoreSession): Promise<void> {
    if (this.pending.size === 0) return;
    const batches = [...this.pending.values()];
    this.pending.clear();
    for (const documents of batches) {
      for (const writes of documents.values()) {
        for (const write of writes) {
          const collection = session.collection(write.collection);
          if (write.first === undefined) {
            await collection.update(write.id, write.update, { upsert: write.upsert });
            continue;
          }
          await collection.updateMany(
            { _id: write.id, [SOURCE_POSITION]: { $lt: write.first } },
            { ...write.update, $set: { ...write.update.$set, [SOURCE_POSITION]: write.last } },
          );
        }
      }
    }
  }
}

/** The update's own copy, to merge into in place (plain ifs: spreads of `cond && {…}` cost more). */
function copy(update: Update): Pending['update'] {
  const out: Pending['update'] = {};
  if (update.$set) out.$set = { ...update.$set };
  if (update.$inc) out.$inc = { ...update.$inc };
  if (update.$unset) out.$unset = { ...update.$unset };
  if (update.$max) out.$max = { ...update.$max };
  if (update.$setOnInsert) out.$setOnInsert = { ...update.$setOnInsert };
  return out;
}

/** Folds `next` into `into` when applying the result equals applying both in turn; else false. */
function merge(
  into: Pending,
  next: Update,
  upsert: boolean,
  position: number | undefined,
): boolean {
  if ((into.first === undefined) !== (position === undefined)) return false;
  // A plain update of a missing document does nothing; the upsert after it would then create
  // the document with both.
  if (upsert && !into.upsert) return false;
  // The target's operator objects are this buffer's own copies (copy()): changed in place.
  const target = into.update;
  if (!repeats(target, next)) {
    // Once the first write has created the document, a later $setOnInsert does nothing: fine when
    // it names nothing new (which `repeats` implies); otherwise the merged insert would write it.
    if (!namesOnly(next.$setOnInsert, target.$setOnInsert)) return false;
    if (conflicts(target, next)) return false;
  }
  if (next.$inc) {
    const inc = (target.$inc ??= {});
    for (const path in next.$inc) inc[path] = (inc[path] ?? 0) + next.$inc[path]!;
  }
  if (next.$max) {
    const max = (target.$max ??= {});
    for (const path in next.$max) {
      const current = max[path];
      const value = next.$max[path]!;
      max[path] = current === undefined ? value : Math.max(current, value);
    }
  }
  if (next.$set) Object.assign((target.$set ??= {}), next.$set);
  if (next.$unset) Object.assign((target.$unset ??= {}), next.$unset);
  if (position !== undefined) into.last = position;
  return true;
}

/** Whether every path of `paths` is one of `known`'s (none when `paths` is absent). */
function namesOnly(
  paths: Readonly<Record<string, unknown>> | undefined,
  known: Readonly<Record<string, unknown>> | undefined,
): boolean {
  for (const path in paths) if (!known || !(path in known)) return false;
  return true;
}

/**
 * Whether each of `b`'s paths is already in `a` under the same operator: the usage receipts'
 * counters, again and again. Such a `b` merges without the pairwise check, as no two of `a`'s
 * paths overlap: the stores refuse an update whose own paths do (as MongoDB does), and a merge
 * adds only paths that overlap none.
 */
function repeats(a: Pending['update'], b: Update): boolean {
  // Spelled out: a property read by a variable name (`b[op]`) is several times slower here.
  return (
    namesOnly(b.$inc, a.$inc) &&
    namesOnly(b.$set, a.$set) &&
    namesOnly(b.$max, a.$max) &&
    namesOnly(b.$unset, a.$unset) &&
    namesOnly(b.$setOnInsert, a.$setOnInsert)
  );
}

/**
 * Whether the merged update would touch one field (or a field and its parent) with two operators,
 * or with one operator under two overlapping paths: not the same as applying them in turn.
 *
 * Only pairs with a path of `b` are looked at: `a`'s own paths were there before and applying `a`
 * alone already does whatever they do, so with `b` disjoint from them the merge equals `a` then
 * `b`. No arrays, sets or built strings: this runs once per merged receipt per document in a batch
 * (unless `repeats` spares it).
 */
function conflicts(a: Pending['update'], b: Update): boolean {
  for (const opB of OPERATORS) {
    const pathsB = b[opB];
    if (!pathsB) continue;
    for (const pathB in pathsB) {
      for (const op of OPERATORS) {
        if (touchesOverlapping(a[op], op, opB, pathB)) return true;
        if (touchesOverlapping(b[op], op, opB, pathB)) return true;
      }
    }
  }
  return false;
}

/** Whether `paths` (under `op`) holds a path overlapping `pathB` other than `pathB` under `opB`. */
function touchesOverlapping(
  paths: Readonly<Record<string, unknown>> | undefined,
  op: Operator,
  opB: Operator,
  pathB: string,
): boolean {
  for (const path in paths) {
    if ((op !== opB || path !== pathB) && overlaps(path, pathB)) return true;
  }
  return false;
}

/** Whether one path is the other or lies under it (`a` and `a.b`; not `a` and `ab`). */
function overlaps(a: string, b: string): boolean {
  return a === b || isPathUnder(a, b) || isPathUnder(b, a);
}
