import {
  WrongExpectedVersionError,
  type AppendResult as EsdbAppendResult,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  type AppendOptions,
  type AppendResult,
  type EventData,
  type ExpectedRevision,
  type Position,
  type RecordedEvent,
  type ReadStreamOptions,
} from '../event-store.port';
import { DuplicateEventIdError } from '../shared/duplicate-event-id-error';
import { toError } from '../shared/to-error';
import { chunkAppend } from './esdb-append-size';
import { keyedAppend, type WriteEvents } from './esdb-idempotency';
import { fromEsdbCurrent, toEsdbEvent, toEsdbExpected } from './esdb-mapping';
import { knownPosition } from './esdb-positions';
import { isTransient, type RetryPolicy } from './esdb-retry';
import { PerKeyQueue } from './esdb-stream-queue';

/**
 * How far before an attempt's start the search for its events reaches back: the server stamps
 * events with its own clock, which may run behind ours.
 */
export const CLOCK_SKEW_MARGIN_MS = 10_000;
/** Events per backwards page when searching a stream for an attempt's events. */
const SEARCH_PAGE = 100;

/** What the appender needs from the store. */
export interface AppendIo {
  readonly client: EventStoreDBClient;
  readStream(streamId: string, options: ReadStreamOptions): Promise<RecordedEvent[]>;
  streamRevision(streamId: string): Promise<number | null>;
  readonly retry: RetryPolicy;
  /** `$all` position of an event, for servers that answer appends without one. */
  positionOf(streamId: string, eventId: string): Promise<Position>;
}

export interface AppendSettings {
  /** Most data + metadata bytes one call to the server carries. */
  readonly chunkBytes: number;
  /** The server's MaxAppendSize: an event over it is refused before anything is written. */
  readonly maxAppendBytes: number;
  /** Pause before the one retry of an append that failed in transit. */
  readonly retryBackoffMs: number;
  /** Our clock, ms since epoch (the server's record times are compared with it). */
  readonly now: () => number;
}

/**
 * The write path of EsdbEventStore. Appends to one stream leave this process one at a time, in
 * call order (different streams stay parallel); see EsdbEventStore.append for the rules.
 */
export class EsdbAppender {
  private readonly queue = new PerKeyQueue();

  constructor(
    private readonly io: AppendIo,
    private readonly settings: AppendSettings,
  ) {}

  append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    let chunks: EventData[][];
    try {
      chunks = this.chunk(streamId, events);
    } catch (error) {
      return Promise.reject(toError(error));
    }
    const key = options.idempotencyKey;
    if (key === undefined) {
      return this.queue.run(streamId, () => this.writeChunks(streamId, chunks, expected));
    }
    const write: WriteEvents = (some, at) =>
      this.writeChunks(streamId, some === events ? chunks : this.chunk(streamId, some), at);
    return this.queue.run(streamId, () =>
      keyedAppend(this.io, this.settings.now, { key, streamId, events, expected }, write),
    );
  }

  private chunk(streamId: string, events: readonly EventData[]): EventData[][] {
    return chunkAppend(streamId, events, this.settings.chunkBytes, this.settings.maxAppendBytes);
  }

  /** Chunk k+1 expects the revision chunk k wrote, so the chunks land back to back. */
  private async writeChunks(
    streamId: string,
    chunks: readonly EventData[][],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    let next = expected;
    let result: AppendResult | undefined;
    for (const chunk of chunks) {
      result = await this.writeChunk(streamId, chunk, next);
      next = result.nextExpectedRevision;
    }
    return result!;
  }

  /**
   * One call, retried once when it failed in transit (timeout, unavailable, leader change): it may
   * have been written, so the stream is searched first, back to events recorded before the attempt
   * started (a bound by time, so it holds on a busy stream). All ids there: it was written, answer
   * that; some: DuplicateEventIdError; none: send it again.
   */
  private async writeChunk(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const startedAt = this.settings.now();
    try {
      return await this.send(streamId, events, expected);
    } catch (error) {
      if (!isTransient(error)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, this.settings.retryBackoffMs));
    const written = await this.findWritten(streamId, events, startedAt - CLOCK_SKEW_MARGIN_MS);
    if (written.length === 0) return this.send(streamId, events, expected);
    if (written.length < events.length) {
      throw new DuplicateEventIdError(
        streamId,
        new Error(`${written.length} of ${events.length} events are already in ${streamId}`),
      );
    }
    const last = written.reduce((a, b) => (b.revision > a.revision ? b : a));
    return { nextExpectedRevision: last.revision, position: last.position };
  }

  private async send(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    let result: EsdbAppendResult;
    try {
      result = await this.io.client.appendToStream(streamId, events.map(toEsdbEvent), {
        expectedRevision: toEsdbExpected(expected),
      });
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new WrongExpectedRevisionError(
          streamId,
          expected,
          fromEsdbCurrent(error.actualVersion),
        );
      }
      throw error;
    }
    if (!result.success) {
      // throwOnAppendFailure=false: client 6.2.1 answers BigInt(hasCurrentStreamRevision()), 1 or
      // -1, for the current revision; only a read tells the real one.
      throw new WrongExpectedRevisionError(
        streamId,
        expected,
        await this.io.streamRevision(streamId),
      );
    }
    // The answer's revision is our last event's, also when it is the answer of an earlier write.
    const position =
      knownPosition(result.position) ??
      (await this.io.positionOf(streamId, events[events.length - 1]!.id));
    return { nextExpectedRevision: Number(result.nextExpectedRevision), position };
  }

  /** The events of `events` found in the stream, searching backwards to `notBefore` (ms). */
  private async findWritten(
    streamId: string,
    events: readonly EventData[],
    notBefore: number,
  ): Promise<RecordedEvent[]> {
    const ids = new Set(events.map((e) => e.id));
    const found: RecordedEvent[] = [];
    let from: number | 'end' = 'end';
    for (;;) {
      const page = await this.io.readStream(streamId, {
        direction: 'backwards',
        fromRevision: from,
        maxCount: SEARCH_PAGE,
      });
      for (const event of page) {
        if (ids.has(event.id)) found.push(event);
        if (found.length === ids.size || event.recordedAt.getTime() < notBefore) return found;
      }
      const oldest = page[page.length - 1];
      if (page.length < SEARCH_PAGE || !oldest || oldest.revision === 0) return found;
      from = oldest.revision - 1;
    }
  }
}
