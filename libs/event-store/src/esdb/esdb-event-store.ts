import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type EventStoreDBClient,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  comparePositions,
  type AppendResult,
  type EventData,
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
import { isActiveFilter, matchesFilter } from '../shared/event-filter';
import { validateAppend } from '../shared/validate-append';
import {
  fromEsdbCurrent,
  fromResolved,
  isSystemRecord,
  rawPosition,
  toEsdbEvent,
  toEsdbExpected,
} from './esdb-mapping';
import { EsdbSubscription } from './esdb-subscription';

/** Events per `$all` page; filters and system events are applied client-side (readAll has no filter in v6). */
const PAGE_SIZE = 1000;

/** EventStore over EventStoreDB / KurrentDB (gRPC client v6). Create it with connectEsdb(). */
export class EsdbEventStore implements EventStore {
  private readonly subscriptions = new Set<EsdbSubscription>();
  private closed = false;

  constructor(private readonly client: EventStoreDBClient) {}

  async append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (this.closed) throw new Error('Event store is closed');
    validateAppend(streamId, events, expected);
    try {
      const result = await this.client.appendToStream(streamId, events.map(toEsdbEvent), {
        expectedRevision: toEsdbExpected(expected),
      });
      const position = result.position ?? (await this.lastPositionOf(streamId));
      return { nextExpectedRevision: Number(result.nextExpectedRevision), position };
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
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    if (options.maxCount === 0) return [];
    if (from === 'end' && !backwards) return [];
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
  }

  async streamRevision(streamId: string): Promise<number | null> {
    const [last] = await this.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    return last ? last.revision : null;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    // ESDB reads "from" a position inclusively; ours is exclusive, so skip anything not after it.
    let after =
      options.fromPosition === undefined || options.fromPosition === 'start'
        ? undefined
        : options.fromPosition;
    while (events.length < limit) {
      const pageSize = isActiveFilter(options.filter)
        ? PAGE_SIZE
        : Math.min(PAGE_SIZE, limit - events.length + 1);
      const page = await this.readAllPage(after ?? START, 'forwards', pageSize);
      for (const resolved of page) {
        const position = rawPosition(resolved);
        if (after && position && comparePositions(position, after) <= 0) continue;
        const event = fromResolved(resolved);
        if (event && matchesFilter(event, options.filter)) events.push(event);
        if (events.length >= limit) break;
      }
      const last = page[page.length - 1];
      if (page.length < pageSize || !last) break;
      after = rawPosition(last);
      if (!after) throw new Error('EventStoreDB returned a $all record without a position');
    }
    return events;
  }

  async headPosition(): Promise<Position | null> {
    let before: ReadPosition = END;
    for (;;) {
      const page = await this.readAllPage(before, 'backwards', PAGE_SIZE);
      for (const resolved of page) {
        if (resolved.event && !isSystemRecord(resolved.event)) return rawPosition(resolved) ?? null;
      }
      const last = page[page.length - 1];
      const position = last && rawPosition(last);
      if (page.length < PAGE_SIZE || !position) return null;
      // Backwards pages overlap by one record (inclusive start); it is a system record, so harmless.
      before = position;
    }
  }

  subscribeToAll(options: SubscribeOptions, handlers: SubscriptionHandlers): Subscription {
    if (this.closed) throw new Error('Event store is closed');
    const subscription = new EsdbSubscription(
      this.client,
      options,
      handlers,
      () => this.headPosition(),
      (s) => this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }

  private async readAllPage(
    from: ReadPosition,
    direction: 'forwards' | 'backwards',
    maxCount: number,
  ): Promise<ResolvedEvent[]> {
    const page: ResolvedEvent[] = [];
    for await (const resolved of this.client.readAll({
      fromPosition: from,
      direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
      maxCount,
    })) {
      page.push(resolved);
    }
    return page;
  }

  /** Older servers omit the position in append results; read it back. */
  private async lastPositionOf(streamId: string): Promise<Position> {
    const [last] = await this.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    if (!last) throw new Error(`Stream ${streamId} is empty right after an append`);
    return last.position;
  }
}
