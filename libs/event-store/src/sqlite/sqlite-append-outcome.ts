import {
  WrongExpectedRevisionError,
  type AppendResult,
  type RecordedEvent,
} from '../event-store.port';
import { DuplicateEventIdError } from './sqlite-errors';
import type { ErrorDescription, WriteAppend, WriteOutcome } from './sqlite-writer';

type Committed = Extract<WriteOutcome, { ok: true }>;

/** The caller's answer for one append of a committed batch: its result, or the error it gets. */
export function appendResultOf(
  item: WriteAppend,
  outcome: WriteOutcome | undefined,
  committedAt: number,
): AppendResult | Error {
  if (!outcome) return new Error('Append lost in flush');
  if (!outcome.ok) {
    return 'duplicate' in outcome
      ? new DuplicateEventIdError(item.streamId, rebuildError(outcome.duplicate))
      : new WrongExpectedRevisionError(item.streamId, item.expected, outcome.actual);
  }
  const last = lastPosition(outcome);
  if (last === undefined) return new Error('Append wrote no events');
  return {
    nextExpectedRevision: outcome.firstRevision + outcome.positions.length - 1,
    position: { commit: last, prepare: last },
    committedAt,
  };
}

export function lastPosition(outcome: Committed): bigint | undefined {
  return outcome.positions[outcome.positions.length - 1];
}

/** An error from the writer, rebuilt with its message, name and SQLite code. */
export function rebuildError(description: ErrorDescription): Error {
  const error = new Error(description.message) as Error & { code?: string };
  if (description.name) error.name = description.name;
  if (description.code) error.code = description.code;
  return error;
}

/** Normalised through JSON like a read would be, so live and catch-up deliveries look identical. */
export function toRecordedEvents(
  item: WriteAppend,
  outcome: Committed,
  recordedAt: Date,
): RecordedEvent[] {
  return item.events.map((event, i) => {
    const position = outcome.positions[i] ?? 0n;
    return {
      id: event.id,
      type: event.type,
      data: JSON.parse(event.data) as unknown,
      metadata: JSON.parse(event.metadata) as Record<string, unknown>,
      streamId: item.streamId,
      revision: outcome.firstRevision + i,
      position: { commit: position, prepare: position },
      recordedAt,
    };
  });
}
