/** True for `{...}` literals and JSON-parsed objects; false for arrays, RegExp, Date, class instances. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** An object whose keys are all operators (`{ $gt: 1 }`); mixing operators and fields is an error. */
export function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 0) return false;
  const operators = keys.filter((k) => k.startsWith('$')).length;
  if (operators > 0 && operators < keys.length) {
    throw new Error(`Cannot mix operators and fields in ${JSON.stringify(value)}`);
  }
  return operators > 0;
}
