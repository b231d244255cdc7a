import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  StreamNotFoundError,
  excludeSystemEvents,
  type EventStoreDBClient,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  comparePositions,
  type AppendOptions,
  type AppendResult,
  type EventData,
  type EventFilter,
  type EventStore,
  type ExpectedRevision,
  type ListStreamsOptions,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionHandlers,
} from '../event-store.port';
import { matchesFilter } from '../shared/event-filter';
import { validateAppend } from '../shared/validate-append';
import { toServerFilter } from './esdb-filter';
import { EsdbAppender } from './esdb-append';
import { APPEND_CHUNK_BYTES, SERVER_MAX_APPEND_BYTES } from './esdb-append-size';
import { fromResolved, isSystemRecord, rawPosition } from './esdb-mapping';
import { knownPosition, positionsFromAll } from './esdb-positions';
import { readAllPage } from './esdb-reads';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from './esdb-retry';
import {
  EsdbMemberSubscription,
  EsdbSharedSubscription,
  type EsdbSubscriptionSource,
} from './esdb-subscription';

/** Events per `$all` page when the caller sets no maxCount. */
const PAGE_SIZE = 1000;
/** Pause before the one retry of an append that failed in transit (a leader election's order). */
const APPEND_RETRY_BACKOFF_MS = 250;

export interface EsdbEventStoreOptions {
  /** Backoff for transient errors on reads and subscriptions (default 100 ms → 5 s, 8 attempts). */
  readonly retry?: RetryPolicy;
  /** Most data + metadata bytes one call to the server carries (default 1,000,000). */
  readonly appendChunkBytes?: number;
  /** The server's MaxAppendSize (default 1,048,576, the server's default). */
  readonly maxAppendBytes?: number;
  /** Pause before retrying an append that failed in transit (default 250 ms). */
  readonly appendRetryBackoffMs?: number;
  /** Our clock, ms since epoch (default Date.now). */
  readonly now?: () => number;
}

/** EventStore over EventStoreDB / KurrentDB (gRPC client v6). Create it with connectEsdb(). */
export class EsdbEventStore implements EventStore, EsdbSubscriptionSource {
  private readonly members = new Set<EsdbMemberSubscription>();
  private readonly shared: EsdbSharedSubscription;
  readonly retry: RetryPolicy;
  /**
   * The server does not hold event ids unique: it deduplicates only a repeat at the same expected
   * revision, or with `any` while the ids are in its recent-commits cache (SQLite's store is true).
   * Callers that repeat appends later pass an idempotency key.
   */
  readonly uniqueEventIds = false;
  private readonly appender: EsdbAppender;
  private closed = false;

  constructor(
    readonly client: EventStoreDBClient,
    options: EsdbEventStoreOptions = {},
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.shared = new EsdbSharedSubscription(this);
    this.appender = new EsdbAppender(this, {
      chunkBytes: options.appendChunkBytes ?? APPEND_CHUNK_BYTES,
      maxAppendBytes: options.maxAppendBytes ?? SERVER_MAX_APPEND_BYTES,
      retryBackoffMs: options.appendRetryBackoffMs ?? APPEND_RETRY_BACKOFF_MS,
      now: options.now ?? Date.now,
    });
  }

  /** Server subscriptions this store has opened (one per process, plus reconnects). */
  get serverSubscriptionsOpened(): number {
    return this.shared.opened;
  }

  /**
   * Appends in call order per stream (one in flight per stream from this process, other streams in
   * parallel). Duplicates are what the server gives: the same ids at the same expected revision, or
   * with `any` while still in its recent-commits cache, answer the first write's result without
   * writing; otherwise repeated ids are written again, so a caller that may repeat an append later
   * passes `options.idempotencyKey` (recorded in a marker stream, see esdb-idempotency.ts).
   *
   * An append larger than the server's MaxAppendSize is split into consecutive calls of at most
   * appendChunkBytes, each expecting the revision the previous one wrote. Such a split append is
   * NOT atomic: a failure between calls leaves a prefix written. Callers stay correct by repeating
   * the same append (event ids are derived, so a repeat carries the same ids): with a numeric or
   * no_stream expected revision the server answers the written prefix as an idempotent success and
   * the rest is written; with an idempotency key the repeat writes only the missing events, and a
   * repeat of a complete append is DuplicateEventIdError. An unkeyed `any` repeat would write the
   * prefix again once the server's recent-ids cache has forgotten it: split-prone appends with
   * `any` need a key. A single event over MaxAppendSize is refused before anything is written.
   *
   * A call that fails in transit (unavailable, deadline, leader change, cancelled) is retried once,
   * after the stream was searched for its events (see EsdbAppender.writeChunk).
   */
  async append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    if (this.closed) throw new Error('Event store is closed');
    validateAppend(streamId, events, expected);
    return this.appender.append(streamId, events, expected, options);
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    if (options.maxCount === 0) return [];
    if (from === 'end' && !backwards) return [];
    return withRetry(this.retry, async () => {
      const read = this.client.readStream(streamId, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: from === 'start' ? START : from === 'end' ? END : BigInt(from),
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
      });
      const events: RecordedEvent[] = [];
      try {
        for await (const resolved of read) {
          const event = fromResolved(resolved);
          if (event) events.push(event);
        }
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
      return this.withKnownPositions(streamId, events);
    });
  }

  async streamRevision(streamId: string): Promise<number | null> {
    const [last] = await this.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    return last ? last.revision : null;
  }

  /** One pass: pages of maxCount, filtered by the server; each page retried from its start. */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    if (limit === 0) return [];
    const events: RecordedEvent[] = [];
    let after =
      options.fromPosition === undefined || options.fromPosition === 'start'
        ? undefined
        : options.fromPosition;
    while (events.length < limit) {
      const want = Math.min(PAGE_SIZE, limit - events.length);
      const page = await this.readAfter(after, options.filter, want);
      events.push(...page);
      const last = page[page.length - 1];
      if (page.length < want || !last) break;
      after = last.position;
    }
    return events;
  }

  /**
   * Up to maxCount events strictly after `after` matching the filter. The server filters (system
   * records excluded even without a filter) and counts maxCount in matching events; the client
   * re-checks (the server takes one filter, types or prefixes) and reads on when it dropped some.
   */
  async readAfter(
    after: Position | undefined,
    filter: EventFilter | undefined,
    maxCount: number,
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    let from: Position | undefined = after;
    const serverFilter = toServerFilter(filter);
    // ESDB reads "from" a position inclusively; ours is exclusive: ask one more, skip the first.
    for (;;) {
      const wanted = maxCount - events.length + (from ? 1 : 0);
      const start = from;
      const page = await withRetry(this.retry, () =>
        readAllPage(this.client, {
          direction: 'forwards',
          fromPosition: start ?? START,
          maxCount: wanted,
          filter: serverFilter,
        }),
      );
      let lastRaw: Position | undefined;
      for (const resolved of page) {
        const position = rawPosition(resolved);
        if (position) lastRaw = position;
        if (start && position && comparePositions(position, start) <= 0) continue;
        const event = fromResolved(resolved);
        if (event && matchesFilter(event, filter) && events.length < maxCount) events.push(event);
      }
      if (events.length >= maxCount || page.length < wanted || !lastRaw) return events;
      from = lastRaw;
    }
  }

  /** The last non-system record: one backwards read of one record, filtered by the server. */
  async headPosition(): Promise<Position | null> {
    let before: ReadPosition = END;
    for (;;) {
      const cursor: ReadPosition = before;
      const page: ResolvedEvent[] = await withRetry(this.retry, () =>
        readAllPage(this.client, {
          direction: 'backwards',
          fromPosition: cursor,
          maxCount: 1,
          filter: excludeSystemEvents(),
        }),
      );
      const [record] = page;
      const position: Position | undefined = record && rawPosition(record);
      if (!record || !position) return null;
      if (record.event && !isSystemRecord(record.event)) return position;
      // An idempotency marker (or a system record a server sent despite the filter): step back.
      if (cursor !== END && comparePositions(position, cursor) >= 0) return null;
      before = position;
    }
  }

  /**
   * A soft delete (the server records `$tb`, truncate-before, in the stream's metadata): reads of
   * the stream find nothing, and the server's next scavenge frees its events, which `$all` returns
   * until then. Retried like a read: deleting twice is deleting once.
   */
  async deleteStream(streamId: string): Promise<void> {
    if (this.closed) throw new Error('Event store is closed');
    await withRetry(this.retry, async () => {
      try {
        await this.client.deleteStream(streamId);
      } catch (error) {
        if (!(error instanceof StreamNotFoundError)) throw error;
      }
    });
  }

  /**
   * `$all` filtered by the server on the stream-name prefix, a page at a time, then one read per
   * distinct stream to leave out those deleted (their events stay in `$all` until a scavenge).
   * Needs no system projection (`$streams` is only there with projections enabled).
   */
  async listStreams(options: ListStreamsOptions): Promise<string[]> {
    const seen = new Set<string>();
    let after: Position | undefined;
    for (;;) {
      const page = await this.readAfter(after, { streamPrefixes: [options.prefix] }, PAGE_SIZE);
      for (const event of page) seen.add(event.streamId);
      const last = page[page.length - 1];
      if (page.length < PAGE_SIZE || !last) break;
      after = last.position;
    }
    const live: string[] = [];
    for (const streamId of seen)
      if ((await this.streamRevision(streamId)) !== null) live.push(streamId);
    return live;
  }

  /** True: a deleted stream's events stay in `$all` until the server scavenges them. */
  readonly deletedStreamsLeaveAll = true;

  subscribeToAll(options: SubscribeOptions, handlers: SubscriptionHandlers): Subscription {
    if (this.closed) throw new Error('Event store is closed');
    const member = new EsdbMemberSubscription(this, this.shared, options, handlers, (m) =>
      this.members.delete(m),
    );
    this.members.add(member);
    return member;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.members].map((s) => s.stop()));
    this.shared.close();
    await this.client.dispose();
  }

  /**
   * `$all` position of one event, for servers that answer an append without one (or with 2^64-1,
   * before 22.6): their stream reads lack it too, so it is looked up in `$all`.
   */
  async positionOf(streamId: string, eventId: string): Promise<Position> {
    const found = await positionsFromAll(this.client, this.retry, streamId, new Set([eventId]));
    const position = found.get(eventId);
    if (!position) throw new Error(`No $all position for event ${eventId} of ${streamId}`);
    return position;
  }

  /** Servers before 22.6 send 2^64-1 for positions in stream reads: look them up in `$all`. */
  private async withKnownPositions(
    streamId: string,
    events: RecordedEvent[],
  ): Promise<RecordedEvent[]> {
    const unknown = new Set(events.filter((e) => !knownPosition(e.position)).map((e) => e.id));
    if (unknown.size === 0) return events;
    const found = await positionsFromAll(this.client, this.retry, streamId, unknown);
    return events.map((e) => {
      const position = knownPosition(e.position) ?? found.get(e.id);
      if (!position) throw new Error(`No $all position for event ${e.id} of ${streamId}`);
      return { ...e, position };
    });
  }
}
