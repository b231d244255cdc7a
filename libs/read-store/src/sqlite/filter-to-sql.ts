import type { Filter, SortSpec } from '../read-store.port';
import { isOperatorObject, isPlainObject } from '../shared/plain-object';
import { fieldExpr, typeExpr } from './sql-names';

export type SqlValue = string | number | null;

/** A collection's trigram index: its FTS5 table and the column holding each searched field. */
export interface SearchIndex {
  readonly table: string;
  readonly columns: ReadonlyMap<string, string>;
}

export interface SqlFragment {
  readonly sql: string;
  readonly params: SqlValue[];
}

/**
 * Translates a Mongo-shaped filter into a WHERE expression over json_extract. Values are always bound
 * (`?`), and placeholders are emitted in the same order as they are bound. Negations are wrapped in
 * COALESCE so a missing field (SQL NULL) behaves as in MongoDB: `$ne`/`$nin` match it.
 */
export function filterToSql(filter: Filter | undefined, search?: SearchIndex): SqlFragment {
  const params: SqlValue[] = [];
  const sql = compileFilter(filter ?? {}, params, search);
  return { sql, params };
}

export function sortToSql(sort: SortSpec | undefined): string {
  const keys = Object.entries(sort ?? {}).map(([path, dir]) => {
    if (dir !== 1 && dir !== -1) throw new Error(`Sort direction for ${path} must be 1 or -1`);
    return `${fieldExpr(path)} ${dir === 1 ? 'ASC' : 'DESC'}`;
  });
  return keys.length === 0 ? '' : ` ORDER BY ${keys.join(', ')}`;
}

function compileFilter(filter: unknown, params: SqlValue[], search?: SearchIndex): string {
  if (!isPlainObject(filter)) throw new Error(`A filter must be an object: ${String(filter)}`);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$or' || key === '$and') {
      if (!Array.isArray(value) || value.length === 0)
        throw new Error(`${key} needs a non-empty array`);
      if (key === '$or' && search) {
        parts.push(compileSearchOr(value as unknown[], params, search));
        continue;
      }
      const subs = value.map((sub: unknown) => `(${compileFilter(sub, params, search)})`);
      parts.push(`(${subs.join(key === '$or' ? ' OR ' : ' AND ')})`);
    } else if (key.startsWith('$')) {
      throw new Error(`Unsupported filter operator: ${key}`);
    } else {
      parts.push(compileField(key, value, params, search));
    }
  }
  return parts.length === 0 ? '1' : parts.map((p) => `(${p})`).join(' AND ');
}

function compileField(
  path: string,
  value: unknown,
  params: SqlValue[],
  search: SearchIndex | undefined,
): string {
  if (value instanceof RegExp) return regex(path, value, undefined, params, search);
  if (!isOperatorObject(value)) return equals(path, value, params, search);
  const parts: string[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (operand === undefined) continue;
    switch (op) {
      case '$eq':
        parts.push(equals(path, operand, params, search));
        break;
      case '$ne':
        parts.push(`NOT COALESCE(${equals(path, operand, params)}, 0)`);
        break;
      case '$in':
        parts.push(anyOf(path, operand, params));
        break;
      case '$nin':
        parts.push(`NOT COALESCE(${anyOf(path, operand, params)}, 0)`);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        parts.push(compare(path, op, operand, params));
        break;
      case '$exists':
        parts.push(`${typeExpr(path)} IS ${operand ? 'NOT NULL' : 'NULL'}`);
        break;
      case '$regex':
        if (typeof operand !== 'string' && !(operand instanceof RegExp)) {
          throw new Error(`$regex on ${path} needs a string or RegExp`);
        }
        parts.push(regex(path, operand, value['$options'], params, search));
        break;
      case '$options':
        if (value['$regex'] === undefined) throw new Error(`$options on ${path} without $regex`);
        break;
      default:
        throw new Error(`Unsupported filter operator: ${op}`);
    }
  }
  return parts.length === 0 ? '1' : parts.map((p) => `(${p})`).join(' AND ');
}

function equals(path: string, value: unknown, params: SqlValue[], search?: SearchIndex): string {
  const f = fieldExpr(path);
  const t = typeExpr(path);
  if (value === null) return `${f} IS NULL`;
  if (typeof value === 'string' || typeof value === 'number') {
    params.push(scalar(path, value));
    return `(${f} = ? AND ${sameType(path, value)})`;
  }
  // json_extract turns true/false into 1/0: the type check keeps booleans apart from numbers.
  if (typeof value === 'boolean')
    return `(${f} = ${value ? 1 : 0} AND ${t} = '${value ? 'true' : 'false'}')`;
  if (value instanceof RegExp) return regex(path, value, undefined, params, search);
  if (Array.isArray(value) || isPlainObject(value)) {
    // Whole-value match, key order included (as in MongoDB); json() minifies like json_extract does.
    params.push(JSON.stringify(value));
    return `(${t} IN ('array', 'object') AND ${f} = json(?))`;
  }
  throw new Error(`Unsupported filter value for ${path}: ${Object.prototype.toString.call(value)}`);
}

function anyOf(path: string, values: unknown, params: SqlValue[]): string {
  if (!Array.isArray(values)) throw new Error(`$in/$nin on ${path} needs an array`);
  const alternatives: string[] = [];
  // One IN list per type keeps the expression index usable.
  for (const kind of ['string', 'number'] as const) {
    const scalars = values.filter((v): v is string | number => typeof v === kind);
    if (scalars.length === 0) continue;
    for (const v of scalars) params.push(scalar(path, v));
    const list = scalars.map(() => '?').join(', ');
    alternatives.push(`(${fieldExpr(path)} IN (${list}) AND ${sameType(path, scalars[0]!)})`);
  }
  for (const v of values) {
    if (typeof v !== 'string' && typeof v !== 'number') alternatives.push(equals(path, v, params));
  }
  if (alternatives.length === 0) return '0';
  return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`;
}

const COMPARATORS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

function compare(
  path: string,
  op: keyof typeof COMPARATORS,
  value: unknown,
  params: SqlValue[],
): string {
  // Like MongoDB, compare only within a type: a number never matches strings and vice versa.
  if (typeof value !== 'number' && typeof value !== 'string')
    throw new Error(`${op} on ${path} needs a number or string`);
  params.push(scalar(path, value));
  return `(${fieldExpr(path)} ${COMPARATORS[op]} ? AND ${sameType(path, value)})`;
}

function regex(
  path: string,
  pattern: string | RegExp,
  options: unknown,
  params: SqlValue[],
  search?: SearchIndex,
): string {
  const source = pattern instanceof RegExp ? pattern.source : pattern;
  const rawFlags =
    (pattern instanceof RegExp ? pattern.flags : '') + (typeof options === 'string' ? options : '');
  // g/y would make RegExp.test stateful; keep only flags JavaScript and MongoDB share.
  const flags = [...new Set(rawFlags)].filter((c) => 'ims'.includes(c)).join('');
  new RegExp(source, flags); // throws early on an invalid pattern
  const narrowed = searchPrefilter(path, source, flags, params, search);
  const literal = literalOf(source);
  if (literal !== null && isAscii(literal)) {
    // A plain ASCII literal needs no JavaScript call per row: SQLite's instr() (lower() folds ASCII
    // only, and a non-unicode /i never maps a non-ASCII character onto an ASCII one) is equivalent.
    const insensitive = flags.includes('i');
    params.push(insensitive ? literal.toLowerCase() : literal);
    const field = insensitive ? `lower(${fieldExpr(path)})` : fieldExpr(path);
    return `(${narrowed}${typeExpr(path)} = 'text' AND instr(${field}, ?) > 0)`;
  }
  params.push(source, flags);
  return `(${narrowed}${typeExpr(path)} = 'text' AND regexp(?, ?, ${fieldExpr(path)}))`;
}

/**
 * A search box asks for one literal in several fields (`$or` of `{field: literal regex}`): one MATCH
 * over those columns narrows the rows once, instead of one index lookup per field, then the exact
 * per-field checks decide. Other branches (an id, say) stay as they are.
 */
function compileSearchOr(branches: unknown[], params: SqlValue[], search: SearchIndex): string {
  const byLiteral = new Map<string, Array<{ index: number; path: string }>>();
  branches.forEach((branch, index) => {
    const hit = searchableBranch(branch, search);
    if (!hit) return;
    const group = byLiteral.get(hit.literal) ?? [];
    group.push({ index, path: hit.path });
    byLiteral.set(hit.literal, group);
  });
  const combined = new Set<number>();
  const parts: string[] = [];
  for (const [literal, group] of byLiteral) {
    if (group.length < 2) continue;
    const columns = [...new Set(group.map((g) => search.columns.get(g.path)!))];
    params.push(`{${columns.join(' ')}} : "${literal.replace(/"/g, '""')}"`);
    // Compiled without the index: the MATCH above is the prefilter for all of them.
    const checks = group.map((g) => `(${compileFilter(branches[g.index], params)})`);
    parts.push(
      `(rowid IN (SELECT rowid FROM ${search.table} WHERE ${search.table} MATCH ?) AND (${checks.join(' OR ')}))`,
    );
    group.forEach((g) => combined.add(g.index));
  }
  branches.forEach((branch, index) => {
    if (!combined.has(index)) parts.push(`(${compileFilter(branch, params, search)})`);
  });
  return `(${parts.join(' OR ')})`;
}

/** `{field: /literal/}` or `{field: {$regex: 'literal', $options}}` on a searched field, usable by the index. */
function searchableBranch(
  branch: unknown,
  search: SearchIndex,
): { path: string; literal: string } | null {
  if (!isPlainObject(branch)) return null;
  const keys = Object.keys(branch);
  if (keys.length !== 1) return null;
  const path = keys[0]!;
  if (!search.columns.has(path)) return null;
  const value = branch[path];
  let source: string;
  let flags: string;
  if (value instanceof RegExp) {
    source = value.source;
    flags = value.flags;
  } else if (
    isPlainObject(value) &&
    typeof value['$regex'] === 'string' &&
    Object.keys(value).every((k) => k === '$regex' || k === '$options')
  ) {
    source = value['$regex'];
    flags = typeof value['$options'] === 'string' ? value['$options'] : '';
  } else {
    return null;
  }
  const literal = literalOf(source);
  if (literal === null || [...literal].length < 3) return null;
  if (flags.includes('i') && ![...literal].every(foldsLikeSqlite)) return null;
  return { path, literal };
}

const isAscii = (text: string): boolean => [...text].every((c) => c.charCodeAt(0) < 0x80);

/**
 * A pattern that is only a literal (metacharacters escaped, as search boxes build it) of at least three
 * characters, on a field with a trigram index, first narrows the rows through the index: every row
 * the regexp matches contains the literal, so the index gives a superset and the regexp still decides
 * (case, exactness). Case-insensitive patterns take the index only when SQLite's case folding and
 * JavaScript's agree (ASCII, or characters without case).
 */
function searchPrefilter(
  path: string,
  source: string,
  flags: string,
  params: SqlValue[],
  search: SearchIndex | undefined,
): string {
  const column = search?.columns.get(path);
  if (!search || !column) return '';
  const literal = literalOf(source);
  if (literal === null || [...literal].length < 3) return '';
  if (flags.includes('i') && ![...literal].every(foldsLikeSqlite)) return '';
  params.push(`${column} : "${literal.replace(/"/g, '""')}"`);
  return `rowid IN (SELECT rowid FROM ${search.table} WHERE ${search.table} MATCH ?) AND `;
}

const META = new Set([...'\\^$.|?*+()[]{}']);

/** The text a pattern matches literally, or null when it uses any regex syntax. */
export function literalOf(source: string): string | null {
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[++i];
      // \d, \w, \b … are classes and assertions; only escaped punctuation is a literal.
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return null;
      text += next;
    } else if (META.has(c)) {
      return null;
    } else {
      text += c;
    }
  }
  return text;
}

function foldsLikeSqlite(c: string): boolean {
  return c.charCodeAt(0) < 0x80 || c.toLowerCase() === c.toUpperCase();
}

/**
 * json_extract returns true/false as 1/0 and objects as JSON text, so a bare comparison would let 1 match
 * true or a string match an object: checking the JSON type keeps MongoDB's per-type semantics. The value
 * comparison stays first so SQLite still uses the expression index.
 */
function sameType(path: string, value: string | number): string {
  return typeof value === 'number'
    ? `${typeExpr(path)} IN ('integer', 'real')`
    : `${typeExpr(path)} = 'text'`;
}

function scalar(path: string, value: string | number): string | number {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error(`Non-finite number in filter on ${path}`);
  return value;
}
