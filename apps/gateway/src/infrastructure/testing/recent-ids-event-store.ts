import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type AppendOptions,
  type AppendResult,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
} from '@tollgate/event-store';

/** EventStoreDB refuses an append over this many bytes of event data and metadata, whole. */
export const SERVER_MAX_APPEND_BYTES = 1024 * 1024;

/**
 * An event store with EventStoreDB's duplicate rules as callers see them through the port, where
 * they differ from SQLite's store-wide unique ids: an event id sent again is refused only at the
 * expected revision of the write that stored it (the server's idempotent success, which the
 * adapter reports as DuplicateEventIdError); sent at a later revision or `any` it is written again
 * (its recent-id cache is taken as empty). An append's idempotency key is remembered once the
 * append succeeded and refuses any later append carrying it. Appends over 1 MiB are refused whole.
 * Every append's options are kept in `calls` for assertions. Streams only: no `$all`.
 */
export class RecentIdsEventStore implements EventStore {
  readonly calls: Array<{ streamId: string; events: number; options?: AppendOptions }> = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly keys = new Set<string>();
  private head = 0n;

  async append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    this.calls.push({ streamId, events: events.length, ...(options ? { options } : {}) });
    await Promise.resolve(); // a round trip: appends sent together interleave
    return this.write(streamId, events, expected, options?.idempotencyKey);
  }

  readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const stream = this.streams.get(streamId) ?? [];
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    const max = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const selected = backwards
      ? stream.filter((e) => from === 'end' || (from !== 'start' && e.revision <= from)).reverse()
      : stream.filter((e) => from === 'start' || (from !== 'end' && e.revision >= from));
    return Promise.resolve(selected.slice(0, max));
  }

  streamRevision(streamId: string): Promise<number | null> {
    return Promise.resolve(this.currentRevision(streamId));
  }

  headPosition(): Promise<Position | null> {
    return Promise.resolve(this.head === 0n ? null : { commit: this.head, prepare: this.head });
  }

  readAll(): Promise<RecordedEvent[]> {
    return Promise.reject(new Error('RecentIdsEventStore reads streams only'));
  }

  subscribeToAll(): never {
    throw new Error('RecentIdsEventStore reads streams only');
  }

  deleteStream(streamId: string): Promise<void> {
    this.streams.delete(streamId);
    return Promise.resolve();
  }

  listStreams(options: { prefix: string }): Promise<string[]> {
    return Promise.resolve([...this.streams.keys()].filter((id) => id.startsWith(options.prefix)));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private currentRevision(streamId: string): number | null {
    const stream = this.streams.get(streamId);
    return stream && stream.length > 0 ? stream.length - 1 : null;
  }

  private write(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
    key: string | undefined,
  ): AppendResult {
    if (key !== undefined && this.keys.has(key))
      throw new DuplicateEventIdError(streamId, new Error(`Idempotency key ${key} seen before`));
    const bytes = events.reduce(
      (sum, e) =>
        sum +
        Buffer.byteLength(JSON.stringify(e.data ?? null)) +
        Buffer.byteLength(JSON.stringify(e.metadata ?? {})),
      0,
    );
    if (bytes > SERVER_MAX_APPEND_BYTES) throw new Error(`Append of ${bytes} bytes is over 1 MiB`);
    const stream = this.streams.get(streamId) ?? [];
    const current = this.currentRevision(streamId);
    if (typeof expected === 'number' || expected === 'no_stream') {
      const start = expected === 'no_stream' ? 0 : expected + 1;
      const stored = stream.slice(start, start + events.length);
      if (stored.length === events.length && stored.every((e, i) => e.id === events[i]!.id))
        throw new DuplicateEventIdError(streamId, new Error('Idempotent retry'));
    }
    const holds =
      expected === 'any' ||
      (expected === 'no_stream' && current === null) ||
      (expected === 'stream_exists' && current !== null) ||
      expected === current;
    if (!holds) throw new WrongExpectedRevisionError(streamId, expected, current);
    for (const event of events) {
      this.head += 1n;
      stream.push({
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata ?? {},
        streamId,
        revision: stream.length,
        position: { commit: this.head, prepare: this.head },
        recordedAt: new Date(0),
      });
    }
    this.streams.set(streamId, stream);
    if (key !== undefined) this.keys.add(key);
    return {
      nextExpectedRevision: stream.length - 1,
      position: { commit: this.head, prepare: this.head },
    };
  }
}
