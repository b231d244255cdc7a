/**
 * What new-api reads as "not given", made absent before a DTO is validated, so clients written for it
 * (its own console sends `"aff_code": null` and `channel=`) are answered as it answers them:
 * - a JSON `null` in a body field (at any depth of nested objects) is the field left out;
 * - an empty query value is the parameter left out.
 * Items of arrays are values, not fields: `[1, null]` stays as sent and is refused as a bad item.
 * Required fields left out this way still get the localized "required" refusal.
 */
export function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value))
    return (value as unknown[]).map((item) => (isPlainObject(item) ? strip(item) : item));
  return isPlainObject(value) ? strip(value) : value;
}

export function withoutEmptyQueryValues(query: unknown): unknown {
  // Not isPlainObject: Fastify's query parser builds its objects on a prototype of its own.
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return query;
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}

function strip(object: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(object))
    if (field !== null) kept[key] = withoutNullFields(field);
  return kept;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
