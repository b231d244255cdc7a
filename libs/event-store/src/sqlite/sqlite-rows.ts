import type { EventFilter, RecordedEvent } from '../event-store.port';

/** Columns as read with safeIntegers on, so positions never lose precision. */
export interface EventRow {
  readonly global_position: bigint;
  readonly event_id: string;
  readonly stream_id: string;
  readonly stream_revision: bigint;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
  readonly recorded_at: bigint;
}

export const EVENT_COLUMNS =
  'global_position, event_id, stream_id, stream_revision, type, data, metadata, recorded_at';

/** SQLite's "no limit". */
export const NO_LIMIT = -1;

export function rowToEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    position: { commit: row.global_position, prepare: row.global_position },
    recordedAt: new Date(Number(row.recorded_at)),
  };
}

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
