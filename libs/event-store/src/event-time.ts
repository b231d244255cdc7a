import type { RecordedEvent } from './event-store.port';

/**
 * The latest occurredAt texts parsed, one per slot: a receipt's time is read by half a dozen
 * projections in turn, and a slot's check costs a fraction of a parse. A slot is chosen from the
 * text's fastest-moving characters (an ISO time's milliseconds and last second digit), not by
 * hashing it: a miss (the relay's one read of each receipt) then costs about the parse alone
 * (+0.05 µs), where a Map's insertion added 0.3 µs.
 */
const SLOTS = 4096;
const slotTexts: string[] = new Array<string>(SLOTS).fill('');
const slotTimes = new Float64Array(SLOTS);

function slotOf(at: string): number {
  const n = at.length;
  if (n < 6) return 0;
  const digits =
    at.charCodeAt(n - 2) +
    10 * at.charCodeAt(n - 3) +
    100 * at.charCodeAt(n - 4) +
    1000 * at.charCodeAt(n - 6);
  return digits & (SLOTS - 1);
}

function parseTime(at: string): number {
  const slot = slotOf(at);
  if (slotTexts[slot] === at) return slotTimes[slot]!;
  const ms = Date.parse(at);
  slotTexts[slot] = at;
  slotTimes[slot] = ms;
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
