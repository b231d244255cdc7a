import { isPathUnder } from '../field-path';
import type { Update } from '../read-store.port';
import { isPlainObject } from './plain-object';

const OPERATORS = new Set(['$set', '$inc', '$unset', '$max', '$setOnInsert']);

/**
 * Applies a Mongo-shaped update to a parsed document in place (the SQLite adapter does updates in JS
 * inside its transaction). `inserting` enables $setOnInsert, as for an upsert that creates the document.
 */
export function applyUpdate(
  doc: Record<string, unknown>,
  update: Update,
  inserting: boolean,
  /**
   * `checked`: the caller has passed the update through checkUpdate already (a store checks it
   * once before its write, refused whether or not a document matches, then applies it per row).
   */
  options: { readonly checked?: boolean } = {},
): void {
  if (!options.checked) checkUpdate(update);
  if (inserting) each(update.$setOnInsert, (path, value) => setPath(doc, path, cloneJson(value)));
  each(update.$set, (path, value) => setPath(doc, path, cloneJson(value)));
  each(update.$inc, (path, value) => {
    const current = getPath(doc, path);
    if (current !== undefined && typeof current !== 'number')
      throw new Error(`Cannot $inc non-numeric ${path}`);
    setPath(doc, path, (current ?? 0) + (value as number));
  });
  each(update.$max, (path, value) => {
    const current = getPath(doc, path);
    if (current === undefined || compareValues(value, current) > 0)
      setPath(doc, path, cloneJson(value));
  });
  each(update.$unset, (path) => unsetPath(doc, path));
}

/**
 * Refuses what MongoDB refuses before touching any document: unknown operators, `_id`, a non-numeric
 * $inc, and two paths of one update that conflict (the same path twice across operators, or a path
 * and one inside it, such as `a` and `a.b`: "Updating the path 'a.b' would create a conflict at 'a'").
 * $setOnInsert takes part even when the update does not insert, as in MongoDB.
 */
export function checkUpdate(update: Update): void {
  const paths: string[] = [];
  for (const [op, fields] of Object.entries(update)) {
    if (!OPERATORS.has(op)) throw new Error(`Unsupported update operator: ${op}`);
    if (fields === undefined) continue;
    if (!isPlainObject(fields)) throw new Error(`${op} needs an object`);
    for (const [path, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      if (path === '_id' || path.startsWith('_id.')) throw new Error('_id cannot be updated');
      segmentsOf(path);
      if (op === '$inc' && (typeof value !== 'number' || !Number.isFinite(value)))
        throw new Error(`$inc ${path} needs a number`);
      paths.push(path);
    }
  }
  // A handful of paths per update: comparing every pair is cheapest, with no string built per pair
  // (this runs for every write a projection makes).
  for (let i = 0; i < paths.length; i++) {
    const a = paths[i]!;
    for (let j = 0; j < paths.length; j++) {
      const b = paths[j]!;
      if (i !== j && (a === b || isPathUnder(b, a)))
        throw new Error(`Updating the path '${b}' would create a conflict at '${a}'`);
    }
  }
}

function each(
  fields: Record<string, unknown> | undefined,
  fn: (path: string, value: unknown) => void,
): void {
  if (!fields) return;
  for (const [path, value] of Object.entries(fields)) {
    if (value === undefined) continue; // dropped, like the MongoDB driver with ignoreUndefined
    fn(path, value);
  }
}

/**
 * The valid paths' segments, split once: every update a projection makes names the same few
 * paths, each checked and then read and written (a rebuild splits them for every buffered write).
 * Cleared when full, so paths built from data (a model's name in it) cannot grow it without bound.
 */
const SEGMENTS = new Map<string, readonly string[]>();
const SEGMENTS_KEPT = 4096;

function segmentsOf(path: string): readonly string[] {
  const known = SEGMENTS.get(path);
  if (known) return known;
  const segments = path.split('.');
  if (segments.some((s) => s === '' || s.startsWith('$') || s === '__proto__'))
    throw new Error(`Invalid field path: ${path}`);
  if (SEGMENTS.size >= SEGMENTS_KEPT) SEGMENTS.clear();
  SEGMENTS.set(path, segments);
  return segments;
}

type Container = Record<string, unknown> | unknown[];

function child(container: Container, key: string): unknown {
  return Array.isArray(container) ? container[Number(key)] : container[key];
}

function isContainer(value: unknown): value is Container {
  return Array.isArray(value) || isPlainObject(value);
}

function getPath(doc: Record<string, unknown>, path: string): unknown {
  let current: unknown = doc;
  for (const key of segmentsOf(path)) {
    if (!isContainer(current)) return undefined;
    current = child(current, key);
  }
  return current;
}

function setPath(doc: Record<string, unknown>, path: string, value: unknown): void {
  const segments = segmentsOf(path);
  const last = segments[segments.length - 1]!;
  let current: Container = doc;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i]!;
    let next = child(current, key);
    if (next === undefined || next === null) {
      next = {};
      assign(current, key, next, path);
    } else if (!isContainer(next)) {
      throw new Error(`Cannot set ${path}: ${key} is not an object`);
    }
    current = next as Container;
  }
  assign(current, last, value, path);
}

function assign(container: Container, key: string, value: unknown, path: string): void {
  if (Array.isArray(container)) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0)
      throw new Error(`Cannot set ${path}: ${key} is not an array index`);
    container[index] = value;
  } else {
    container[key] = value;
  }
}

function unsetPath(doc: Record<string, unknown>, path: string): void {
  const segments = segmentsOf(path);
  const last = segments[segments.length - 1]!;
  let current: unknown = doc;
  for (let i = 0; i < segments.length - 1; i++) {
    if (!isContainer(current)) return;
    current = child(current, segments[i]!);
  }
  if (Array.isArray(current)) {
    // MongoDB keeps array positions stable: an unset element becomes null.
    const index = Number(last);
    if (Number.isInteger(index) && index >= 0 && index < current.length) current[index] = null;
  } else if (isPlainObject(current)) {
    delete current[last];
  }
}

function cloneJson(value: unknown): unknown {
  return typeof value === 'object' && value !== null
    ? (JSON.parse(JSON.stringify(value)) as unknown)
    : value;
}

/** BSON comparison order for the JSON types: null < numbers < strings < objects < arrays < booleans. */
function rank(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'object') return 4;
  if (typeof value === 'boolean') return 8;
  return 9;
}

/**
 * MongoDB's comparison of two JSON values: by type rank, then within the type. Strings compare by
 * their UTF-8 bytes (as MongoDB's simple collation does), arrays element by element, objects pair by
 * pair (the value's type, then the key, then the value); a prefix is less than the longer value.
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareUtf8(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ea = Object.entries(a);
    const eb = Object.entries(b);
    for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
      const [ka, va] = ea[i]!;
      const [kb, vb] = eb[i]!;
      const c = rank(va) - rank(vb) || compareUtf8(ka, kb) || compareValues(va, vb);
      if (c !== 0) return c;
    }
    return ea.length - eb.length;
  }
  return 0;
}

function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
