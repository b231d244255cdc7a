import type { RecordedEvent } from './event-store.port';

/**
 * When an event happened, in ms: its metadata's occurredAt (set by the writer at decision time,
 * kept across imports and replays), else when the store recorded it.
 */
export function eventTimeMs(event: Pick<RecordedEvent, 'metadata' | 'recordedAt'>): number {
  const at = event.metadata['occurredAt'];
  const parsed = typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isFinite(parsed) ? parsed : event.recordedAt.getTime();
}
