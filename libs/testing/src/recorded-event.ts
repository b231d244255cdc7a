import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@tollgate/event-store';

let lastCommit = 0n;

/**
 * An event as the store's subscription delivers it, for hot-cache and projection specs: a fresh id
 * and the next `$all` position (increasing across calls); `fields` overrides any of it.
 */
export function recordedEvent(
  type: string,
  data: unknown,
  fields: Partial<RecordedEvent> = {},
): RecordedEvent {
  lastCommit += 1n;
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {},
    streamId: 'test-1',
    revision: 0,
    position: { commit: lastCommit, prepare: lastCommit },
    recordedAt: new Date(),
    ...fields,
  };
}
