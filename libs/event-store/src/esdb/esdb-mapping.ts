import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  jsonEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type JSONType,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type {
  EventData,
  ExpectedRevision,
  Metadata,
  Position,
  RecordedEvent,
} from '../event-store.port';

export function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

export function fromEsdbCurrent(current: CurrentRevision | undefined): number | null {
  return typeof current === 'bigint' ? Number(current) : null;
}

export function toEsdbEvent(event: EventData): ReturnType<typeof jsonEvent> {
  // The client JSON.stringifies data and metadata; the cast only widens its JSONType to ours.
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: (event.data ?? null) as JSONType,
    metadata: event.metadata ?? {},
  });
}

/** Streams where the adapter records idempotency keys (see esdb-idempotency.ts). */
export const MARKER_STREAM_PREFIX = 'idempotency-key-';

/**
 * Server-internal records ($stats, $metadata, links…) and the adapter's own idempotency markers are
 * not part of our log.
 */
export function isSystemRecord(record: {
  readonly type: string;
  readonly streamId: string;
}): boolean {
  return (
    record.type.startsWith('$') ||
    record.streamId.startsWith('$') ||
    record.streamId.startsWith(MARKER_STREAM_PREFIX)
  );
}

/** Position of a raw `$all` record, whether or not we keep it. */
export function rawPosition(resolved: ResolvedEvent): Position | undefined {
  const position = resolved.event?.position ?? resolved.link?.position;
  if (position) return position;
  return resolved.commitPosition === undefined
    ? undefined
    : { commit: resolved.commitPosition, prepare: resolved.commitPosition };
}

/** Our RecordedEvent, or null for system records. */
export function fromResolved(resolved: ResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || isSystemRecord(event)) return null;
  const position = rawPosition(resolved);
  if (!position)
    throw new Error('EventStoreDB returned an event without a position (server older than 22.6?)');
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: isPlainObject(event.metadata) ? (event.metadata as Metadata) : {},
    streamId: event.streamId,
    revision: Number(event.revision),
    position,
    recordedAt: event.created,
  };
}

function isPlainObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array)
  );
}
