import type { EventData, ExpectedRevision } from '../event-store.port';

/** Argument checks both adapters share, so they fail the same way before touching storage. */
export function validateAppend(
  streamId: string,
  events: readonly EventData[],
  expected: ExpectedRevision,
): void {
  if (typeof streamId !== 'string' || streamId.length === 0)
    throw new Error('streamId must be a non-empty string');
  if (events.length === 0) throw new Error(`Append to ${streamId} needs at least one event`);
  if (typeof expected === 'number' && !(Number.isSafeInteger(expected) && expected >= 0)) {
    throw new Error(`Expected revision must be a non-negative integer, got ${expected}`);
  }
  for (const event of events) {
    if (!event.id || !event.type)
      throw new Error(`Every event needs an id and a type (stream ${streamId})`);
  }
}
