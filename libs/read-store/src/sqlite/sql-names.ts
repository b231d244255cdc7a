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

/** SQL for the field's value (`_id` lives in the primary-key column, the rest in the JSON doc); `row` is `new.`/`old.` in triggers. */
export function fieldExpr(path: string, row = ''): string {
  return path === '_id' ? `${row}id` : `json_extract(${row}doc, '${jsonPath(path)}')`;
}

/** SQL for the field's JSON type: NULL when missing, 'null' | 'true' | 'false' | 'integer' | 'real' | 'text' | 'array' | 'object'. */
export function typeExpr(path: string, row = ''): string {
  return path === '_id' ? `'text'` : `json_type(${row}doc, '${jsonPath(path)}')`;
}

/** The field's value when it is a string, else NULL: what the substring-search index holds. */
export function textExpr(path: string, row = ''): string {
  return `CASE WHEN ${typeExpr(path, row)} = 'text' THEN ${fieldExpr(path, row)} END`;
}

/*
 * The adapter's own tables carry a `$`, which collection names cannot contain, so they never collide.
 */
export const COUNTS_TABLE = '"$counts"';
export const SEARCH_CONFIG_TABLE = '"$search"';
export const searchTableName = (collection: string): string => `"$fts_${collection}"`;
