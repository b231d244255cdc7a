import type { Filter } from '../read-store.port';
import { isPlainObject } from '../documents/plain-object';
import { filterToSql, type FilterContext, type FilterSql, type SqlValue } from './filter-to-sql';
import { DOC_TEXT } from './sql-names';

/** A guarded write's filter, read: the document's id and the position its field must be below. */
interface Guard {
  readonly id: string;
  readonly field: string;
  readonly below: number;
}

interface Compiled {
  readonly field: string;
  readonly context: FilterContext;
  readonly sql: string;
  /** Where each bound value comes from, in the order of the placeholders. */
  readonly slots: readonly ('id' | 'below')[];
  /** The documents' SELECT under `sql`, once a write has asked for it. */
  select?: string;
}

/**
 * `{ _id: <text>, <field>: { $lt: <finite number> } }`, the filter of a projection batch's guarded
 * write (BatchWrites: it applies while the document's recorded position is below the event's).
 */
function guardOf(filter: Filter | undefined): Guard | undefined {
  if (!filter) return undefined;
  const keys = Object.keys(filter);
  if (keys.length !== 2 || keys[0] !== '_id') return undefined;
  const id = filter['_id'];
  const field = keys[1]!;
  const condition = filter[field];
  if (typeof id !== 'string' || field.startsWith('$') || !isPlainObject(condition))
    return undefined;
  const operators = Object.keys(condition);
  const below = condition['$lt'];
  if (operators.length !== 1 || typeof below !== 'number' || !Number.isFinite(below))
    return undefined;
  return { id, field, below };
}

/** The bound values' sources, when each value is the id or the position as given; else null. */
function slotsOf(params: readonly SqlValue[], guard: Guard): Compiled['slots'] | null {
  const slots: ('id' | 'below')[] = [];
  for (const param of params) {
    if (param === guard.id) slots.push('id');
    else if (param === guard.below) slots.push('below');
    else return null;
  }
  return slots;
}

const valuesOf = (slots: Compiled['slots'], guard: Guard): SqlValue[] =>
  slots.map((slot) => (slot === 'id' ? guard.id : guard.below));

/**
 * The slots of `compiled`, when a filter of other values compiles to the same SQL with those
 * values in the same places: then no bound constant was taken for a value, and no value changed
 * the SQL. Null when that does not hold.
 */
function keptSlots(
  compiled: FilterSql,
  guard: Guard,
  context: FilterContext,
): Compiled['slots'] | null {
  const slots = slotsOf(compiled.params, guard);
  if (!slots || compiled.assumedScalar.length > 0) return null;
  const other: Guard = { id: `${guard.id}\u0001`, field: guard.field, below: guard.below + 1 };
  const check = filterToSql({ _id: other.id, [guard.field]: { $lt: other.below } }, context);
  const expected = valuesOf(slots, other);
  const same =
    check.sql === compiled.sql &&
    check.params.length === expected.length &&
    check.params.every((param, i) => param === expected[i]);
  return same ? slots : null;
}

/**
 * Each collection's compiled guarded-write filter. That filter's SQL is the same for any id and
 * position, which are bound (filterToSql binds every value), and compiling it took 5–12 µs for each
 * document a projection batch writes. The kept form is used while the context holds the same key
 * columns, indexes and search index: those are replaced, never changed in place, when indexes are
 * deferred or built. Any other filter is compiled each time. One per store: a collection object is
 * made for each write.
 */
export class GuardedFilters {
  private readonly compiled = new Map<string, Compiled>();

  where(collection: string, filter: Filter | undefined, context: FilterContext): FilterSql {
    const guard = guardOf(filter);
    if (!guard) return filterToSql(filter, context);
    const kept = this.compiled.get(collection);
    if (
      kept &&
      kept.field === guard.field &&
      kept.context.keys === context.keys &&
      kept.context.indexed === context.indexed &&
      kept.context.search === context.search &&
      kept.context.scalar === context.scalar
    ) {
      return { sql: kept.sql, params: valuesOf(kept.slots, guard), assumedScalar: [] };
    }
    const fresh = filterToSql(filter, context);
    const slots = keptSlots(fresh, guard, context);
    if (slots)
      this.compiled.set(collection, { field: guard.field, context, sql: fresh.sql, slots });
    else this.compiled.delete(collection);
    return fresh;
  }

  /**
   * The SELECT of the documents of `table` under `where`: kept with the collection's guarded filter,
   * so that its text is the same string each time, whose hash the statement cache computes once.
   */
  selectDocuments(collection: string, table: string, where: FilterSql): string {
    const kept = this.compiled.get(collection);
    const build = () => `SELECT id, ${DOC_TEXT} AS doc FROM ${table} WHERE ${where.sql}`;
    if (!kept || kept.sql !== where.sql) return build();
    return (kept.select ??= build());
  }
}
