import type { EventData, EventStore, ExpectedRevision } from '@tollgate/event-store';
import { chunkBySize, eventBytes } from '@tollgate/event-store';
import { APPEND_LIMITS } from '../infrastructure/append-chunks';
import { KeyedMutex } from '../shared/keyed-mutex';

/**
 * The idempotency key of an import append: the source (its fingerprint) and the append's first
 * event id. A re-run sending an append an earlier run wrote is refused, however far the stream
 * moved on since.
 */
export function importAppendKey(fingerprint: string, firstEventId: string): string {
  return `import:${fingerprint}:${firstEventId}`;
}

/** The expected revision of an append that goes right after `revision` (null: no stream yet). */
export function expectedAfter(revision: number | null): ExpectedRevision {
  return revision === null ? 'no_stream' : revision;
}

const isDuplicate = (error: unknown): boolean =>
  (error as Error | undefined)?.name === 'DuplicateEventIdError';

/**
 * Writes a long run of imported events to one stream (the logs: thousands a batch) in appends of
 * at most MAX_APPEND_BYTES and MAX_APPEND_EVENTS, each with its idempotency key, one append per
 * stream at a time: appends issued ahead (the logs pipeline theirs) reach the store in the order
 * given, as their expected revisions need; an engine may deliver concurrent appends to one stream
 * out of order. Different streams stay parallel.
 *
 * Rule for an append refused as a duplicate: its key or its ids were sent before, but that does not
 * prove every event of it was written (an engine splits an over-size append into parts that are
 * not atomic; a run can die between them). So its events are appended again one by one, each at
 * the revision it belongs at and with its own id as key: the ones already there are refused as
 * duplicates and counted as done, the others are written. What was written of the append is a
 * prefix of it, written in order from the same revision, so each event's revision is known.
 */
export class ImportAppends {
  private readonly streams = new KeyedMutex();

  constructor(
    private readonly store: EventStore,
    private readonly fingerprint: string,
  ) {}

  /** Appends `events` in order right after `revision`; resolves with the revision after them. */
  appendAll(
    stream: string,
    events: readonly EventData[],
    revision: number | null,
  ): Promise<number> {
    const appends = chunkBySize(events, eventBytes, APPEND_LIMITS);
    // run() queues synchronously: calls made back to back keep their order.
    return this.streams.run(stream, async () => {
      let at = revision;
      for (const chunk of appends) at = await this.appendChunk(stream, chunk, at);
      return at ?? -1;
    });
  }

  private async appendChunk(
    stream: string,
    events: readonly EventData[],
    revision: number | null,
  ): Promise<number> {
    try {
      const result = await this.store.append(stream, events, expectedAfter(revision), {
        idempotencyKey: importAppendKey(this.fingerprint, events[0]!.id),
      });
      return result.nextExpectedRevision;
    } catch (error) {
      if (!isDuplicate(error)) throw error;
      let at = revision;
      for (const event of events) at = await this.appendOne(stream, event, at);
      return at ?? -1;
    }
  }

  /** One event right after `revision`: written, or found there already. */
  private async appendOne(stream: string, event: EventData, revision: number | null) {
    try {
      const result = await this.store.append(stream, [event], expectedAfter(revision), {
        idempotencyKey: event.id,
      });
      return result.nextExpectedRevision;
    } catch (error) {
      if (!isDuplicate(error)) throw error;
      return (revision ?? -1) + 1;
    }
  }
}
