import type { RecordedEvent } from './event-store.port';

/**
 * The latest occurredAt texts, parsed: a receipt's is read by half a dozen projections in turn, and
 * a lookup by the same text (its hash kept on the string) costs a fraction of a parse. Emptied when
 * full, so it stays small.
 */
const parsed = new Map<string, number>();
const PARSED_KEPT = 4096;

function parseTime(at: string): number {
  let ms = parsed.get(at);
  if (ms === undefined) {
    if (parsed.size >= PARSED_KEPT) parsed.clear();
    ms = Date.parse(at);
    parsed.set(at, ms);
  }
  return ms;
}

/**
 * When an event happened, in ms: its metadata's occurredAt (set by the writer at decision time,
 * kept across imports and replays), else when the store recorded it.
 */
export function eventTimeMs(event: Pick<RecordedEvent, 'metadata' | 'recordedAt'>): number {
  const at = event.metadata['occurredAt'];
  const ms = typeof at === 'string' ? parseTime(at) : NaN;
  return Number.isFinite(ms) ? ms : event.recordedAt.getTime();
}
