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

/** SQL for the field's value (`_id` lives in the primary-key column, the rest in the JSON doc). */
export function fieldExpr(path: string): string {
  return path === '_id' ? 'id' : `json_extract(doc, '${jsonPath(path)}')`;
}

/** SQL for the field's JSON type: NULL when missing, 'null' | 'true' | 'false' | 'integer' | 'real' | 'text' | 'array' | 'object'. */
export function typeExpr(path: string): string {
  return path === '_id' ? `'text'` : `json_type(doc, '${jsonPath(path)}')`;
}
