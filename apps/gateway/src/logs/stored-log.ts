/**
 * How a log row is stored: the log is the largest read model (a row per relayed request), so its
 * document keeps only what the answer cannot derive, under short keys. Nothing outside this file
 * sees the stored form: rows go in and come out whole (log-store.ts), field for field and `other`
 * byte for byte as they were built.
 */
import type { LogType } from '@tollgate/contracts';
import type { Filter, FindOptions } from '@tollgate/read-store';
import type { LogRow, LogRowParts } from './log.document';

/** Each stored field's key, in the row's (and the answer's) field order; `id` is in `_id`. */
const KEYS = {
  created_at: 't',
  type: 'y',
  user_id: 'u',
  username: 'n',
  token_name: 'k',
  model_name: 'm',
  quota: 'q',
  prompt_tokens: 'p',
  completion_tokens: 'c',
  use_time: 'ut',
  is_stream: 's',
  channel: 'ch',
  token_id: 'tk',
  group: 'g',
  request_id: 'r',
  retry: 'rt',
  ip: 'ip',
  content: 'ct',
  admin_id: 'a',
} as const satisfies Partial<Record<keyof LogRow, string>>;

type Field = keyof typeof KEYS;

/** What a row holds when its event says nothing of a field: left out of the stored row. */
export const LOG_ROW_DEFAULTS: Pick<LogRow, Exclude<Field, 'created_at' | 'type' | 'user_id'>> = {
  username: '',
  token_name: '',
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: false,
  channel: 0,
  token_id: 0,
  group: '',
  request_id: '',
  retry: '',
  ip: '',
  content: '',
  admin_id: 0,
};

/**
 * A stored row. A field at its default ('' / 0 / false) is left out. `other` is kept as `o`, its
 * text, unless it packs: a consumption row's ratios as `x` ([model, completion, group, price,
 * cache, then frt when there was one]), the keys between them and `admin_info` as `e`, and
 * `admin_info` left out when it only names the channels tried (`retry`, or the row's channel).
 */
export type StoredLog = { _id: string; t: number; y: LogType; u: number } & {
  [F in Field as (typeof KEYS)[F]]?: LogRow[F];
} & { rx?: string; x?: number[]; e?: Record<string, unknown>; o?: string };

const FIELDS = Object.keys(KEYS) as Field[];

/**
 * `_id` is the row id (the event's `$all` position) in base 36 behind a letter giving its length,
 * so `_id` order is id order: the primary key serves "newest first" and ends every index.
 */
const ID_RADIX = 36;
// 2^53 has 11 base-36 digits.
const LENGTH_LETTERS = 'abcdefghijk';

export function logKey(id: number): string {
  const digits = id.toString(ID_RADIX);
  return `${LENGTH_LETTERS[digits.length - 1]}${digits}`;
}

const idOfKey = (key: string): number => parseInt(key.slice(1), ID_RADIX);

/** The ratios of a consumption row's `other`, in the order they are written (log-rows.ts). */
const RATIOS = ['model_ratio', 'completion_ratio', 'group_ratio', 'model_price', 'cache_ratio'];
const FIRST_TOKEN = 'frt';
const ADMIN_INFO = 'admin_info';

/**
 * The gateway's own request ids (32 lowercase hex digits, request-id.ts) are stored as their 16
 * bytes in base 64 (22 characters); a client's own id is stored as it is.
 */
const GATEWAY_REQUEST_ID = /^[0-9a-f]{32}$/;
const PACKED_REQUEST_ID = 'rx';

/**
 * Each stored field with its key and the default it is left out at (NO_DEFAULT: always stored), as
 * parallel arrays: packLog runs for every receipt the projector writes.
 */
const NO_DEFAULT = Symbol('no default');
const STORED_KEYS = FIELDS.map((field) => KEYS[field]);
const DEFAULTS: unknown[] = FIELDS.map((field) =>
  field in LOG_ROW_DEFAULTS ? LOG_ROW_DEFAULTS[field as keyof typeof LOG_ROW_DEFAULTS] : NO_DEFAULT,
);

export function packLog(row: LogRow): StoredLog {
  const stored = packFields(row);
  if (row.other) {
    const packed = packedOther(row);
    // Packed only when its text comes back exactly from the packed form.
    if (packed && unpackOther(packed, row) === row.other) storePacked(stored, packed);
    else stored['o'] = row.other;
  }
  return stored as StoredLog;
}

/**
 * A row whose `other` is still the object its text would be `JSON.stringify` of (a receipt's,
 * log-rows.ts): packed from the object, the text never made. The packed form unpacks to that text
 * when the object's keys come in the order unpackOther writes them, checked key by key: the values
 * are the object's own, so their text is the same.
 */
export function packLogParts(parts: LogRowParts): StoredLog {
  const { row, other } = parts;
  const stored = packFields(row);
  const packed = packedFields(other, row);
  if (packed && unpacksInOrder(packed, other)) storePacked(stored, packed);
  else stored['o'] = JSON.stringify(other);
  return stored as StoredLog;
}

/** The row's fields but `other`, each under its key and left out at its default. */
function packFields(row: Omit<LogRow, 'other'>): Record<string, unknown> {
  const stored: Record<string, unknown> = { _id: logKey(row.id) };
  const packId = GATEWAY_REQUEST_ID.test(row.request_id);
  for (let i = 0; i < FIELDS.length; i++) {
    const field = FIELDS[i]!;
    if (packId && field === 'request_id') continue;
    // The fields every row is found or grouped by have no default: stored even when zero.
    const value = row[field];
    if (value !== DEFAULTS[i]) stored[STORED_KEYS[i]!] = value;
  }
  if (packId) stored[PACKED_REQUEST_ID] = Buffer.from(row.request_id, 'hex').toString('base64url');
  return stored;
}

function storePacked(stored: Record<string, unknown>, packed: PackedOther): void {
  if (packed.x) stored['x'] = packed.x;
  if (packed.e) stored['e'] = packed.e;
}

export function unpackLog(stored: StoredLog): LogRow {
  const source = stored as unknown as Record<string, unknown>;
  const row: Record<string, unknown> = { id: idOfKey(stored._id) };
  for (const field of FIELDS) {
    // `other` (from the retries and channel, read by now) comes just before `admin_id`.
    if (field === 'admin_id') row['other'] = unpackOther(stored, row as unknown as LogRow);
    row[field] = source[KEYS[field]] ?? LOG_ROW_DEFAULTS[field as keyof typeof LOG_ROW_DEFAULTS];
  }
  if (stored.rx !== undefined)
    row['request_id'] = Buffer.from(stored.rx, 'base64url').toString('hex');
  return row as unknown as LogRow;
}

/** The channels a call row's `admin_info` names: the retries, else the row's channel. */
const channelsTried = (row: Pick<LogRow, 'retry' | 'channel'>): number[] =>
  row.retry ? row.retry.split(',').map(Number) : [row.channel];

/** Whether `admin` is `{ use_channel: channelsTried(row) }` (packLog's round trip has the last word). */
function namesChannelsTried(admin: unknown, row: Omit<LogRow, 'other'>): boolean {
  if (typeof admin !== 'object' || admin === null) return false;
  for (const key in admin) if (key !== 'use_channel') return false;
  const named = (admin as { use_channel?: unknown }).use_channel;
  if (!Array.isArray(named)) return false;
  const tried = channelsTried(row);
  return named.length === tried.length && tried.every((channel, i) => named[i] === channel);
}

type PackedOther = Pick<StoredLog, 'x' | 'e'>;

/** `other`'s text packed (packedFields); null when it is no JSON object. */
function packedOther(row: LogRow): PackedOther | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.other);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  return packedFields(parsed as Record<string, unknown>, row);
}

/**
 * `other`'s fields in one pass (this runs for every receipt the projector writes): the ratios into
 * `x` when all five are numbers, the rest but `admin_info` into `e`; null when it does not pack.
 */
function packedFields(
  fields: Readonly<Record<string, unknown>>,
  row: Omit<LogRow, 'other'>,
): PackedOther | null {
  if (!namesChannelsTried(fields[ADMIN_INFO], row)) return null;
  const x: number[] = [];
  for (const key of RATIOS) {
    const ratio = fields[key];
    if (typeof ratio !== 'number') break;
    x.push(ratio);
  }
  const packsRatios = x.length === RATIOS.length;
  let e: Record<string, unknown> | undefined;
  for (const key in fields) {
    // An own `__proto__` would become the prototype of `e`: left as text.
    if (key === '__proto__') return null;
    if (key === ADMIN_INFO) continue;
    if (packsRatios && (key === FIRST_TOKEN || RATIOS.includes(key))) continue;
    (e ??= {})[key] = fields[key];
  }
  if (!packsRatios) return { e: e ?? {} };
  const frt = fields[FIRST_TOKEN];
  if (typeof frt === 'number') x.push(frt);
  return e ? { x, e } : { x };
}

/**
 * Whether `fields`' keys come in the order unpackOther writes `packed` back: `frt` first when `x`
 * holds it, the five ratios next when `x` holds them, `e`'s keys (in their order already), and
 * `admin_info` last.
 */
function unpacksInOrder(packed: PackedOther, fields: Readonly<Record<string, unknown>>): boolean {
  const ratios = packed.x ? RATIOS.length : 0;
  const leading = packed.x && packed.x.length > RATIOS.length ? 1 : 0;
  let i = 0;
  let last: string | undefined;
  for (const key in fields) {
    if (i < leading) {
      if (key !== FIRST_TOKEN) return false;
    } else if (i < leading + ratios) {
      if (key !== RATIOS[i - leading]) return false;
    } else if (ratios > 0 && key === FIRST_TOKEN) return false; // left out of `x` and of `e`
    last = key;
    i++;
  }
  return last === ADMIN_INFO;
}

function unpackOther(stored: Partial<StoredLog>, row: LogRow): string {
  if (stored.o !== undefined) return stored.o;
  const { x, e } = stored;
  if (!x && !e) return '';
  // An `e` holding `__proto__` (stored before such rows were left as text) needs an object without
  // a prototype to keep it a field; the others take a plain one (it stringifies half again faster).
  const other: Record<string, unknown> =
    e && Object.hasOwn(e, '__proto__') ? (Object.create(null) as Record<string, unknown>) : {};
  if (x) {
    if (x.length > RATIOS.length) other[FIRST_TOKEN] = x[RATIOS.length];
    for (let i = 0; i < RATIOS.length; i++) other[RATIOS[i]!] = x[i];
  }
  if (e) Object.assign(other, e);
  other[ADMIN_INFO] = { use_channel: channelsTried(row) };
  return JSON.stringify(other);
}

/** A filter on row fields as a filter on the stored keys (`$or` / `$and` branches too). */
export function storedFilter(filter: Filter): Filter {
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) =>
      key === '$or' || key === '$and'
        ? [key, (value as Filter[]).map(storedFilter)]
        : [storedKey(key), value],
    ),
  );
}

/** Sorts name row fields; `id` is `_id`. */
export function storedOptions(options: FindOptions): FindOptions {
  if (!options.sort) return options;
  const sort = Object.fromEntries(
    Object.entries(options.sort).map(([key, dir]) => [storedKey(key), dir]),
  );
  return { ...options, sort };
}

export function storedKey(field: string): string {
  if (field === 'id') return '_id';
  // Two stored forms (packed or not): no single key to filter on.
  if (field === 'request_id') throw new Error('The log rows cannot be filtered by request_id');
  const key = (KEYS as Record<string, string>)[field];
  if (!key) throw new Error(`The log rows have no field ${field}`);
  return key;
}
