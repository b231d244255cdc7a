import type { EventFilter } from '../event-store.port';

/** Columns as read with safeIntegers on, so positions never lose precision. */
export interface EventRow {
  readonly global_position: bigint;
  /** A UUID's 16 bytes, or text (sqlite-schema.ts). */
  readonly event_id: string | Buffer;
  readonly stream_id: string;
  readonly stream_revision: bigint;
  readonly type: string;
  /** A payload blob (metadata then an empty blob), or both as JSON text. */
  readonly data: string | Buffer;
  readonly metadata: string | Buffer;
  readonly recorded_at: bigint;
}

export const EVENT_COLUMNS =
  'global_position, event_id, stream_id, stream_revision, type, data, metadata, recorded_at';

/** SQLite's "no limit". */
export const NO_LIMIT = -1;

export interface FilterSql {
  /** Identifies the statement shape, for the prepared-statement cache. */
  readonly key: string;
  /** ' AND …' or ''. */
  readonly where: string;
  readonly params: readonly string[];
}

/** SQL form of `matchesFilter`: same semantics (empty lists do not constrain). */
export function filterToSql(filter: EventFilter | undefined): FilterSql {
  const types = filter?.eventTypes ?? [];
  const prefixes = filter?.streamPrefixes ?? [];
  let where = '';
  const params: string[] = [];
  if (types.length > 0) {
    where += ` AND type IN (${types.map(() => '?').join(', ')})`;
    params.push(...types);
  }
  if (prefixes.length > 0) {
    // substr/length count characters on both sides; LIKE would be case-insensitive and need escaping.
    where += ` AND (${prefixes.map(() => 'substr(stream_id, 1, length(?)) = ?').join(' OR ')})`;
    for (const prefix of prefixes) params.push(prefix, prefix);
  }
  return { key: `${types.length}:${prefixes.length}`, where, params };
}
