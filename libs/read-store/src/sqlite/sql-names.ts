/**
 * Identifiers and JSON paths cannot be bound as parameters, and expression indexes only match when a
 * query repeats the index expression exactly, so both are validated and rendered here, in one place.
 */

const COLLECTION_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLAIN_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Quotes, backslashes and control characters could escape the quoted literal: reject them.
const forbiddenInSegment = (segment: string): boolean =>
  /["'\\]/.test(segment) || [...segment].some((c) => c.charCodeAt(0) < 0x20);

export function tableName(collection: string): string {
  if (!COLLECTION_NAME.test(collection) || collection.toLowerCase().startsWith('sqlite_')) {
    throw new Error(`Invalid collection name: ${collection}`);
  }
  return `"${collection}"`;
}

export function splitPath(path: string): string[] {
  const segments = path.split('.');
  for (const segment of segments) {
    if (segment === '' || segment.startsWith('$') || forbiddenInSegment(segment)) {
      throw new Error(`Invalid field path: ${path}`);
    }
  }
  return segments;
}

function jsonPath(path: string): string {
  return (
    '$' +
    splitPath(path)
      .map((s) => (PLAIN_SEGMENT.test(s) ? `.${s}` : `."${s}"`))
      .join('')
  );
}

/**
 * The document column read as JSON text. A write-once collection's documents are written as SQLite's
 * binary JSON (JSONB, `jsonb(?)`), which json_extract and json_type read without parsing text: its
 * keys are computed from the document by every index build and every insert. Other collections, and
 * rows written before, hold text; both forms share the column (a TEXT column keeps a blob as it is),
 * so a reader turns either into text and no row is ever migrated.
 */
export const DOC_TEXT = `iif(typeof(doc) = 'blob', json(doc), doc)`;

/** SQL for the field's value (`_id` lives in the primary-key column, the rest in the JSON doc); `row` is `new.`/`old.` in triggers. */
export function fieldExpr(path: string, row = ''): string {
  return path === '_id' ? `${row}id` : `json_extract(${row}doc, '${jsonPath(path)}')`;
}

/** SQL for the field's JSON type: NULL when missing, 'null' | 'true' | 'false' | 'integer' | 'real' | 'text' | 'array' | 'object'. */
export function typeExpr(path: string, row = ''): string {
  return path === '_id' ? `'text'` : `json_type(${row}doc, '${jsonPath(path)}')`;
}

/**
 * The field's value when it is a string (for an array: its string elements, one per line), else NULL:
 * what the substring-search index holds. Every string a `$regex` can match on the field is in it.
 */
export function textExpr(path: string, row = ''): string {
  const t = typeExpr(path, row);
  if (path === '_id') return fieldExpr(path, row);
  return (
    `CASE ${t} WHEN 'text' THEN ${fieldExpr(path, row)} WHEN 'array' THEN ` +
    `(SELECT group_concat(value, char(10)) FROM json_each(${row}doc, '${jsonPath(path)}') WHERE type = 'text') END`
  );
}

/*
 * BSON order in one SQLite value. SQLite orders NULL < numbers < text < blobs, and compares blobs
 * bytewise; MongoDB orders null/missing < numbers < strings < objects < arrays < booleans (the JSON
 * types a document can hold). The key maps null and missing to -Infinity (JSON has no infinities, so
 * it sorts before every stored number and never collides with one), keeps numbers and strings, and
 * turns objects, arrays, false and true into blobs with a 1, 2, 3, 4 prefix byte. One expression thus
 * serves equality (`key = ?` is a same-type match), ranges (bounded to the operand's type), sorting and
 * the expression indexes, and a unique index sees null and missing as one value, as MongoDB does.
 */
export const NULL_KEY = '-9e999';
/** The field's BSON-ordered key (see above); `_id` is the primary-key column, always a string. */
export function keyExpr(path: string, row = ''): string {
  if (path === '_id') return `${row}id`;
  return keyExprOf(`${row}doc`, path);
}

/** The same key, computed from any JSON text (a bound document, say). */
export function keyExprOf(json: string, path: string): string {
  return keyOf(
    `json_type(${json}, '${jsonPath(path)}')`,
    `json_extract(${json}, '${jsonPath(path)}')`,
  );
}

/*
 * An indexed path's key is also stored in a column of its own, written with the document: an index
 * on a plain column is only touched by an UPDATE that sets that column, so the frequent counter
 * updates (quota, request counts) rewrite the document alone instead of every expression index of
 * the row (docs/performance-journal.md). The column holds exactly keyExpr's value (no type
 * affinity), so anything keyExpr answers, the column answers.
 */
export const KEY_COLUMN_PREFIX = 'key:';
export function keyColumn(path: string): string {
  splitPath(path); // validates: no quotes or control characters
  return `"${KEY_COLUMN_PREFIX}${path}"`;
}

/** The SQL for a path's key: its key column when the collection has one, else keyExpr (same value). */
export function keySql(path: string, columns: ReadonlyMap<string, string> | undefined): string {
  return columns?.get(path) ?? keyExpr(path);
}

/** The same key for an element of `json_each(...)` (its `type` and `value` columns). */
export function elementKeyExpr(alias: string): string {
  return keyOf(`${alias}.type`, `${alias}.value`);
}

function keyOf(type: string, value: string): string {
  return (
    `CASE ${type} WHEN 'true' THEN x'04' WHEN 'false' THEN x'03' ` +
    `WHEN 'object' THEN CAST(char(1) || ${value} AS BLOB) ` +
    `WHEN 'array' THEN CAST(char(2) || ${value} AS BLOB) ` +
    `ELSE IFNULL(${value}, ${NULL_KEY}) END`
  );
}

/** `json_each` over the field's value (one row per element when it is an array). */
export function eachExpr(path: string, row = ''): string {
  return `json_each(${row}doc, '${jsonPath(path)}')`;
}

/*
 * The adapter's own tables carry a `$`, which collection names cannot contain, so they never collide.
 */
export const COUNTS_TABLE = '"$counts"';
export const SEARCH_CONFIG_TABLE = '"$search"';
export const searchTableName = (collection: string): string => `"$fts_${collection}"`;
/** The triggers that keep a collection's row in COUNTS_TABLE exact (after an insert, a delete). */
export const counterTriggerName = (collection: string, kind: 'ins' | 'del'): string =>
  `"$count_${kind}_${collection}"`;
/** The FTS5 table's own copy of the searched texts (columns `id` = rowid, `c0`, `c1`, …). */
export const searchContentTableName = (collection: string): string =>
  `"$fts_${collection}_content"`;
