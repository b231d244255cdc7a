import type { Filter, SortSpec } from '../read-store.port';
import { isOperatorObject, isPlainObject } from '../documents/plain-object';
import {
  NULL_KEY,
  eachExpr,
  elementKeyExpr,
  fieldExpr,
  keyExpr,
  keySql,
  typeExpr,
} from './sql-names';
import {
  isAscii,
  literalOf,
  narrowing,
  searchableBranch,
  searchPrefilter,
  type SearchIndex,
} from './search-narrowing';

export type SqlValue = string | number | null;

export interface SqlFragment {
  readonly sql: string;
  readonly params: SqlValue[];
}

export interface FilterContext {
  readonly search?: SearchIndex | undefined;
  /** The key column of each indexed path (sql-names.ts, keyColumn): compared instead of keyExpr. */
  readonly keys?: ReadonlyMap<string, string> | undefined;
  /** Leading paths of the collection's indexes: their array test is written so the index answers it. */
  readonly indexed?: ReadonlySet<string> | undefined;
  /**
   * Paths that hold no array in any document (a probe said so): their conditions leave out the
   * array-element branch, so an index on them can also give the sort order.
   */
  readonly scalar?: ReadonlySet<string> | undefined;
}

export interface FilterSql extends SqlFragment {
  /** The paths whose array branch was left out because `scalar` listed them. */
  readonly assumedScalar: readonly string[];
}

interface State {
  readonly params: SqlValue[];
  readonly context: FilterContext;
  readonly assumed: Set<string>;
}

/**
 * Translates a Mongo-shaped filter into a WHERE expression over the documents' BSON-ordered keys (see
 * keyExpr). Values are always bound (`?`), and placeholders are emitted in the same order as they are
 * bound. As in MongoDB, a condition on a field holding an array also matches when one element
 * satisfies it (equality, $in, ranges, $regex; `$ne`/`$nin` are their negations), and null/missing
 * are one value. Paths do not traverse arrays (`a.b` with `a` an array): see docs.
 */
export function filterToSql(
  filter: Filter | undefined,
  context: FilterContext | SearchIndex = {},
): FilterSql {
  const ctx: FilterContext = 'table' in context ? { search: context } : context;
  const state: State = { params: [], context: ctx, assumed: new Set() };
  const sql = compileFilter(filter ?? {}, state, ctx.search);
  return { sql, params: state.params, assumedScalar: [...state.assumed] };
}

/** ORDER BY in BSON order, with `_id` ascending as the last key so pages never repeat or skip ties. */
export function sortToSql(
  sort: SortSpec | undefined,
  columns?: ReadonlyMap<string, string>,
): string {
  const entries = Object.entries(sort ?? {});
  if (entries.length === 0) return '';
  const keys = entries.map(([path, dir]) => {
    if (dir !== 1 && dir !== -1) throw new Error(`Sort direction for ${path} must be 1 or -1`);
    return `${keySql(path, columns)} ${dir === 1 ? 'ASC' : 'DESC'}`;
  });
  if (!entries.some(([path]) => path === '_id')) keys.push('id ASC');
  return ` ORDER BY ${keys.join(', ')}`;
}

function compileFilter(filter: unknown, state: State, search?: SearchIndex): string {
  if (!isPlainObject(filter)) throw new Error(`A filter must be an object: ${String(filter)}`);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$or' || key === '$and') {
      if (!Array.isArray(value) || value.length === 0)
        throw new Error(`${key} needs a non-empty array`);
      if (key === '$or' && search) {
        parts.push(compileSearchOr(value as unknown[], state, search));
        continue;
      }
      const subs = value.map((sub: unknown) => `(${compileFilter(sub, state, search)})`);
      parts.push(`(${subs.join(key === '$or' ? ' OR ' : ' AND ')})`);
    } else if (key.startsWith('$')) {
      throw new Error(`Unsupported filter operator: ${key}`);
    } else {
      parts.push(compileField(key, value, state, search));
    }
  }
  return parts.length === 0 ? '1' : parts.map((p) => `(${p})`).join(' AND ');
}

function compileField(
  path: string,
  value: unknown,
  state: State,
  search: SearchIndex | undefined,
): string {
  keyExpr(path); // validates the path even when every operand is undefined
  if (value instanceof RegExp) return regex(path, value, undefined, state, search);
  if (!isOperatorObject(value)) return equals(path, value, state);
  if (value['$options'] !== undefined && value['$regex'] === undefined)
    throw new Error(`$options on ${path} without $regex`);
  const parts: string[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (operand === undefined) continue;
    switch (op) {
      case '$eq':
        if (operand instanceof RegExp) throw new Error(`$eq on ${path} cannot take a RegExp`);
        parts.push(equals(path, operand, state));
        break;
      case '$ne':
        // MongoDB: "Can't have regex as arg to $ne".
        if (operand instanceof RegExp) throw new Error(`$ne on ${path} cannot take a RegExp`);
        parts.push(`NOT ${equals(path, operand, state)}`);
        break;
      case '$in':
        parts.push(anyOf(path, operand, state));
        break;
      case '$nin':
        parts.push(`NOT ${anyOf(path, operand, state)}`);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        parts.push(compare(path, op, operand, state));
        break;
      case '$exists':
        parts.push(exists(path, operand));
        break;
      case '$regex':
        if (typeof operand !== 'string' && !(operand instanceof RegExp)) {
          throw new Error(`$regex on ${path} needs a string or RegExp`);
        }
        parts.push(regex(path, operand, value['$options'], state, search));
        break;
      case '$options':
        break;
      default:
        throw new Error(`Unsupported filter operator: ${op}`);
    }
  }
  return parts.length === 0 ? '1' : parts.map((p) => `(${p})`).join(' AND ');
}

/**
 * `scalarCond` on the field's key, or, when the field holds an array, `elementCond` on one of its
 * elements' keys. The builders push their bound values as they render, in text order.
 */
function orElement(
  path: string,
  state: State,
  scalarCond: (key: string) => string,
  elementCond: (key: string) => string,
): string {
  const key = keySql(path, state.context.keys);
  const scalar = scalarCond(key);
  if (path === '_id') return `(${scalar})`;
  if (state.context.scalar?.has(path)) {
    state.assumed.add(path);
    return `(${scalar})`;
  }
  // On an indexed path the array test is a range of the indexed key (an index seek, usually empty);
  // elsewhere json_type is the cheaper test on a row already read.
  const isArray = state.context.indexed?.has(path)
    ? `${key} >= x'02' AND ${key} < x'03'`
    : `${typeExpr(path)} = 'array'`;
  const element = elementCond(elementKeyExpr('e'));
  return `(${scalar} OR (${isArray} AND EXISTS (SELECT 1 FROM ${eachExpr(path)} AS e WHERE ${element})))`;
}

function equals(path: string, value: unknown, state: State): string {
  return orElement(
    path,
    state,
    (key) => `${key} = ${keyOfValue(path, value, state.params)}`,
    (key) => `${key} = ${keyOfValue(path, value, state.params)}`,
  );
}

/** The SQL for a filter value's key (bound where it is data), matching keyExpr's mapping. */
function keyOfValue(path: string, value: unknown, params: SqlValue[]): string {
  if (value === null) return NULL_KEY;
  if (typeof value === 'string' || typeof value === 'number') {
    params.push(scalar(path, value));
    return '?';
  }
  if (typeof value === 'boolean') return value ? "x'04'" : "x'03'";
  if (Array.isArray(value) || isPlainObject(value)) {
    // Whole-value match, key order included (as in MongoDB); json() minifies like json_extract does.
    params.push(JSON.stringify(value));
    return `CAST(char(${Array.isArray(value) ? 2 : 1}) || json(?) AS BLOB)`;
  }
  throw new Error(`Unsupported filter value for ${path}: ${Object.prototype.toString.call(value)}`);
}

function anyOf(path: string, values: unknown, state: State): string {
  if (!Array.isArray(values)) throw new Error(`$in/$nin on ${path} needs an array`);
  const plain = values.filter((v) => !(v instanceof RegExp));
  const patterns = values.filter((v): v is RegExp => v instanceof RegExp);
  const alternatives: string[] = [];
  if (plain.length > 0) {
    const list = () => plain.map((v) => keyOfValue(path, v, state.params)).join(', ');
    // One IN list keeps the expression index usable.
    alternatives.push(
      orElement(
        path,
        state,
        (key) => `${key} IN (${list()})`,
        (key) => `${key} IN (${list()})`,
      ),
    );
  }
  for (const pattern of patterns) alternatives.push(regex(path, pattern, undefined, state));
  if (alternatives.length === 0) return '(0)';
  return `(${alternatives.join(' OR ')})`;
}

const COMPARATORS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

function compare(path: string, op: keyof typeof COMPARATORS, value: unknown, state: State): string {
  // Like MongoDB, compare only within a type: a number never matches strings and vice versa. The
  // second bound keeps the range inside the operand's band of the key.
  if (typeof value !== 'number' && typeof value !== 'string')
    throw new Error(`${op} on ${path} needs a number or string`);
  const upward = op === '$gt' || op === '$gte';
  const bound =
    typeof value === 'number' ? (upward ? `< ''` : `> ${NULL_KEY}`) : upward ? `< x''` : `>= ''`;
  const cond = (key: string) => {
    state.params.push(scalar(path, value));
    return `${key} ${COMPARATORS[op]} ? AND ${key} ${bound}`;
  };
  return orElement(path, state, cond, cond);
}

function exists(path: string, operand: unknown): string {
  if (path === '_id') return operand ? '1' : '0';
  return `${typeExpr(path)} IS ${operand ? 'NOT NULL' : 'NULL'}`;
}

function regex(
  path: string,
  pattern: string | RegExp,
  options: unknown,
  state: State,
  search?: SearchIndex,
): string {
  const params = state.params;
  const source = pattern instanceof RegExp ? pattern.source : pattern;
  if (options !== undefined && typeof options !== 'string')
    throw new Error(`$options on ${path} must be a string`);
  const ownFlags = pattern instanceof RegExp ? pattern.flags : '';
  // MongoDB refuses flags in both places ("options set in both $regex and $options").
  if (ownFlags !== '' && options)
    throw new Error(`Options set in both $regex and $options on ${path}`);
  const rawFlags = ownFlags + (options ?? '');
  for (const c of rawFlags)
    if (!'imsgyu'.includes(c)) throw new Error(`Unsupported regex option ${c} on ${path}`);
  // g/y would make RegExp.test stateful; keep only flags JavaScript and MongoDB share.
  const flags = [...new Set(rawFlags)].filter((c) => 'ims'.includes(c)).join('');
  new RegExp(source, flags); // throws early on an invalid pattern
  const guard = searchPrefilter(path, source, flags, params, search);
  const literal = literalOf(source);
  const test = (value: string) => {
    if (literal !== null && isAscii(literal)) {
      // A plain ASCII literal needs no JavaScript call per row: SQLite's instr() (lower() folds ASCII
      // only, and a non-unicode /i never maps a non-ASCII character onto an ASCII one) is equivalent.
      const insensitive = flags.includes('i');
      params.push(insensitive ? literal.toLowerCase() : literal);
      return `instr(${insensitive ? `lower(${value})` : value}, ?) > 0`;
    }
    params.push(source, flags);
    return `regexp(?, ?, ${value})`;
  };
  if (path === '_id') return `(${guard(test('id'))})`;
  // Strings match; an array matches when one of its string elements does.
  const scalarTest = test(fieldExpr(path));
  const elementTest = test('e.value');
  return `(${guard(
    `CASE ${typeExpr(path)} WHEN 'text' THEN ${scalarTest} WHEN 'array' THEN ` +
      `EXISTS (SELECT 1 FROM ${eachExpr(path)} AS e WHERE e.type = 'text' AND ${elementTest}) ELSE 0 END`,
  )})`;
}

/**
 * A search box asks for one literal in several fields (`$or` of `{field: literal regex}`): one MATCH
 * over those columns narrows the rows once, instead of one index lookup per field, then the exact
 * per-field checks decide. Other branches (an id, say) stay as they are.
 */
function compileSearchOr(branches: unknown[], state: State, search: SearchIndex): string {
  const byLiteral = new Map<string, Array<{ index: number; path: string; insensitive: boolean }>>();
  branches.forEach((branch, index) => {
    const hit = searchableBranch(branch, search);
    if (!hit) return;
    const group = byLiteral.get(hit.literal) ?? [];
    group.push({ index, ...hit });
    byLiteral.set(hit.literal, group);
  });
  const combined = new Set<number>();
  const parts: string[] = [];
  for (const [literal, group] of byLiteral) {
    if (group.length < 2) continue;
    const guard = narrowing(
      search,
      literal,
      group.map((g) => ({ column: search.columns.get(g.path)!, insensitive: g.insensitive })),
      state.params,
    );
    // Compiled without the index: the narrowing above is the prefilter for all of them.
    const checks = group.map((g) => `(${compileFilter(branches[g.index], state)})`);
    parts.push(`(${guard(`(${checks.join(' OR ')})`)})`);
    group.forEach((g) => combined.add(g.index));
  }
  branches.forEach((branch, index) => {
    if (!combined.has(index)) parts.push(`(${compileFilter(branch, state, search)})`);
  });
  return `(${parts.join(' OR ')})`;
}

function scalar(path: string, value: string | number): string | number {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error(`Non-finite number in filter on ${path}`);
  return value;
}
