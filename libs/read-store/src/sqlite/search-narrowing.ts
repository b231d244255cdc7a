/**
 * The search index's part of a filter: which regex conditions a collection's trigram index can
 * narrow, and the SQL that narrows the rows before the exact test (filter-to-sql.ts) decides.
 */
import { isPlainObject } from '../documents/plain-object';
import type { SqlValue } from './filter-to-sql';

/**
 * A collection's trigram index: its FTS5 table, that table's content shadow table (the searched
 * texts, read for literals too short for trigrams), the collection's own table (whose rowid the
 * content rows share) and the column holding each searched field.
 */
export interface SearchIndex {
  readonly table: string;
  readonly contentTable: string;
  readonly rows: string;
  readonly columns: ReadonlyMap<string, string>;
}

/** `{field: /literal/}` or `{field: {$regex: 'literal', $options}}` on a searched field, usable by the index. */
export function searchableBranch(
  branch: unknown,
  search: SearchIndex,
): { path: string; literal: string; insensitive: boolean } | null {
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
  const literal = indexableLiteral(source, flags);
  return literal === null ? null : { path, literal, insensitive: flags.includes('i') };
}

export const isAscii = (text: string): boolean => [...text].every((c) => c.charCodeAt(0) < 0x80);

/**
 * A pattern that is only a literal (metacharacters escaped, as search boxes build it), on a field with
 * a trigram index, first narrows the rows through the index: every row the regexp matches contains
 * the literal, so the index gives a superset and the regexp still decides (case, exactness).
 */
export function searchPrefilter(
  path: string,
  source: string,
  flags: string,
  params: SqlValue[],
  search: SearchIndex | undefined,
): Guard {
  const column = search?.columns.get(path);
  if (!search || !column) return unguarded;
  const literal = indexableLiteral(source, flags);
  if (literal === null) return unguarded;
  return narrowing(search, literal, [{ column, insensitive: flags.includes('i') }], params);
}

/** Puts a narrowing in front of the exact test it guards (its parameters are pushed first). */
export type Guard = (test: string) => string;
const unguarded: Guard = (test) => test;

/**
 * The literal a pattern can be narrowed by, or null. Case-insensitive patterns qualify only when
 * SQLite's case folding (the trigram tokenizer's, lower()'s) and JavaScript's agree: ASCII, or
 * characters without case.
 */
function indexableLiteral(source: string, flags: string): string | null {
  const literal = literalOf(source);
  if (literal === null || literal === '') return null;
  if (flags.includes('i') && ![...literal].every(foldsLikeSqlite)) return null;
  return literal;
}

/**
 * A superset of the rows whose columns contain the literal. Three characters or more take the trigram
 * index (one MATCH over all the columns). Shorter ones have no trigram: each row's searched texts are
 * looked up in the index's content table by rowid, far cheaper to test than the JSON document. A
 * per-row test, not `rowid IN (scan)`: a page sorted by an index stops at its last row, and another
 * selective condition is not made to wait for a scan of every row (measured in
 * docs/performance-journal.md).
 */
export function narrowing(
  search: SearchIndex,
  literal: string,
  checks: ReadonlyArray<{ column: string; insensitive: boolean }>,
  params: SqlValue[],
): Guard {
  if ([...literal].length >= 3) {
    const columns = [...new Set(checks.map((c) => c.column))];
    const scope = columns.length === 1 ? columns[0]! : `{${columns.join(' ')}}`;
    params.push(`${scope} : "${literal.replace(/"/g, '""')}"`);
    // Top level of the AND: the planner drives the rows from the index's rowids.
    return (test) =>
      `rowid IN (SELECT rowid FROM ${search.table} WHERE ${search.table} MATCH ?) AND ${test}`;
  }
  // Each branch keeps its own case rule: one lower() test for all would miss a case-sensitive 'É'
  // (JavaScript lower-cases the literal, SQLite's lower() leaves the text).
  const tests = new Map<string, SqlValue>();
  for (const { column, insensitive } of checks) {
    tests.set(
      insensitive ? `instr(lower(s.${column}), ?) > 0` : `instr(s.${column}, ?) > 0`,
      insensitive ? literal.toLowerCase() : literal,
    );
  }
  params.push(...tests.values());
  const exists = `EXISTS (SELECT 1 FROM ${search.contentTable} AS s WHERE s.id = ${search.rows}.rowid AND (${[...tests.keys()].join(' OR ')}))`;
  // In a CASE, so it is tested first: at the top of an AND, SQLite may turn the EXISTS into a join
  // whose outer loop runs the exact test on every row's document (no faster than no narrowing).
  return (test) => `CASE WHEN ${exists} THEN ${test} ELSE 0 END`;
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
