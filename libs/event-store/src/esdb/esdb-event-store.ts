import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  type AppendResult as EsdbAppendResult,
  type EventStoreDBClient,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  comparePositions,
  type AppendResult,
  type EventData,
  type EventFilter,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionHandlers,
} from '../event-store.port';
import { DuplicateEventIdError } from '../shared/duplicate-event-id-error';
import { matchesFilter } from '../shared/event-filter';
import { validateAppend } from '../shared/validate-append';
import { toServerFilter } from './esdb-filter';
import {
  fromEsdbCurrent,
  fromResolved,
  isSystemRecord,
  rawPosition,
  toEsdbEvent,
  toEsdbExpected,
} from './esdb-mapping';
import { readAllPage } from './esdb-reads';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from './esdb-retry';
import {
  EsdbMemberSubscription,
  EsdbSharedSubscription,
  type EsdbSubscriptionSource,
} from './esdb-subscription';

/** Events per `$all` page when the caller sets no maxCount. */
const PAGE_SIZE = 1000;
/** Recent events of a stream searched for an append's ids before writing (see append()). */
const DUPLICATE_WINDOW = 64;

export interface EsdbEventStoreOptions {
  /** Backoff for transient errors on reads and subscriptions (default 100 ms → 5 s, 8 attempts). */
  readonly retry?: RetryPolicy;
}

/** EventStore over EventStoreDB / KurrentDB (gRPC client v6). Create it with connectEsdb(). */
export class EsdbEventStore implements EventStore, EsdbSubscriptionSource {
  private readonly members = new Set<EsdbMemberSubscription>();
  private readonly shared: EsdbSharedSubscription;
  readonly retry: RetryPolicy;
  private closed = false;

  constructor(
    readonly client: EventStoreDBClient,
    options: EsdbEventStoreOptions = {},
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.shared = new EsdbSharedSubscription(this);
  }

  /** Server subscriptions this store has opened (one per process, plus reconnects). */
  get serverSubscriptionsOpened(): number {
    return this.shared.opened;
  }

  /**
   * Duplicate rule, the same as SQLite's for what the gateway relies on: an append whose event ids
   * are already in the stream is not written again and rejects with DuplicateEventIdError. The
   * server would instead answer an idempotent success (same expected revision) or write the events
   * twice (a later revision), so the stream's recent events are searched for the ids first.
   */
  async append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (this.closed) throw new Error('Event store is closed');
    validateAppend(streamId, events, expected);
    await this.rejectDuplicates(streamId, events);
    let result: EsdbAppendResult;
    try {
      result = await this.client.appendToStream(streamId, events.map(toEsdbEvent), {
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
    // throwOnAppendFailure=false: a wrong expected revision comes back as a result, not a throw.
    if (!result.success) {
      const actual = result.nextExpectedRevision >= 0n ? Number(result.nextExpectedRevision) : null;
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
    const position = result.position ?? (await this.lastPositionOf(streamId));
    return { nextExpectedRevision: Number(result.nextExpectedRevision), position };
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
      return events;
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
      // Only a server that ignored the filter gets here: step back past the system record.
      if (cursor !== END && comparePositions(position, cursor) >= 0) return null;
      before = position;
    }
  }

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

  private async rejectDuplicates(streamId: string, events: readonly EventData[]): Promise<void> {
    const recent = await this.readStream(streamId, {
      direction: 'backwards',
      maxCount: DUPLICATE_WINDOW + events.length,
    });
    if (recent.length === 0) return;
    const ids = new Set(events.map((e) => e.id));
    const found = recent.find((e) => ids.has(e.id));
    if (found) {
      throw new DuplicateEventIdError(
        streamId,
        new Error(`Event ${found.id} is already at revision ${found.revision} of ${streamId}`),
      );
    }
  }

  /** Older servers omit the position in append results; read it back. */
  private async lastPositionOf(streamId: string): Promise<Position> {
    const [last] = await this.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    if (!last) throw new Error(`Stream ${streamId} is empty right after an append`);
    return last.position;
  }
}
