import {
  START,
  type AllStreamSubscription,
  type EventStoreDBClient,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  comparePositions,
  type EventFilter,
  type Position,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionHandlers,
} from '../event-store.port';
import { matchesFilter } from '../shared/event-filter';
import { DEFAULT_MAX_BATCH_SIZE, SubscriptionPump } from '../shared/subscription-pump';
import { toError } from '../shared/to-error';
import { toServerFilter } from './esdb-filter';
import { fromResolved, rawPosition } from './esdb-mapping';
import { isTransient, retryDelay, withRetry, type RetryPolicy } from './esdb-retry';

/** What the shared subscription and its members need from the store. */
export interface EsdbSubscriptionSource {
  readonly client: EventStoreDBClient;
  readonly retry: RetryPolicy;
  /** Head of $all (non-system), null when empty. */
  headPosition(): Promise<Position | null>;
  /** Events strictly after `after` matching the filter, at most maxCount, server-side filtered. */
  readAfter(
    after: Position | undefined,
    filter: EventFilter | undefined,
    maxCount: number,
  ): Promise<RecordedEvent[]>;
}

/**
 * The one `$all` subscription of a process. Port subscriptions (members) catch up on their own by
 * reading `$all` from their position, then join this shared stream; it starts at the head read when
 * the first member arrives, so its position is always known, and after a transient failure it
 * resubscribes from the last position it saw, so what it hands on has no gap.
 */
export class EsdbSharedSubscription {
  private readonly members = new Set<EsdbMemberSubscription>();
  private stream: AllStreamSubscription | undefined;
  /** Last non-system position received; defined once started (undefined = empty store at start). */
  private last: Position | undefined;
  private started = false;
  private starting: Promise<void> | undefined;
  private failures = 0;
  private generation = 0;
  /** Server subscriptions opened, for tests and diagnostics. */
  opened = 0;

  constructor(private readonly source: EsdbSubscriptionSource) {}

  get isStarted(): boolean {
    return this.started;
  }

  get lastPosition(): Position | undefined {
    return this.last;
  }

  add(member: EsdbMemberSubscription): void {
    this.members.add(member);
    if (this.started) member.sharedReady();
    else this.starting ??= this.start();
  }

  remove(member: EsdbMemberSubscription): void {
    this.members.delete(member);
    if (this.members.size === 0) this.close();
  }

  close(): void {
    this.generation += 1;
    const stream = this.stream;
    this.stream = undefined;
    this.started = false;
    this.starting = undefined;
    this.last = undefined;
    this.failures = 0;
    if (stream) void stream.unsubscribe().catch(() => undefined);
  }

  private async start(): Promise<void> {
    const generation = this.generation;
    let head: Position | null;
    try {
      head = await withRetry(
        this.source.retry,
        () => this.source.headPosition(),
        () => generation !== this.generation,
      );
    } catch (error) {
      if (generation === this.generation) this.failAll(toError(error));
      return;
    }
    if (generation !== this.generation) return;
    this.last = head ?? undefined;
    this.started = true;
    this.open();
    for (const member of [...this.members]) member.sharedReady();
  }

  private open(): void {
    const generation = this.generation;
    this.opened += 1;
    const stream = this.source.client.subscribeToAll({
      fromPosition: this.last ?? START,
      filter: toServerFilter(undefined),
    });
    this.stream = stream;
    stream.on('data', (resolved: ResolvedEvent) => {
      if (generation !== this.generation || stream !== this.stream) return;
      this.failures = 0;
      this.onData(resolved);
    });
    const lost = (error: Error): void => {
      if (generation !== this.generation || stream !== this.stream) return;
      this.stream = undefined;
      void stream.unsubscribe().catch(() => undefined);
      this.failures += 1;
      if (!isTransient(error) || this.failures >= this.source.retry.maxAttempts) {
        this.failAll(error);
        return;
      }
      setTimeout(
        () => {
          if (generation === this.generation && !this.stream) this.open();
        },
        retryDelay(this.source.retry, this.failures),
      );
    };
    stream.on('error', lost);
    stream.on('end', () =>
      lost(Object.assign(new Error('EventStoreDB ended the subscription'), { code: 14 })),
    );
  }

  private onData(resolved: ResolvedEvent): void {
    const position = rawPosition(resolved);
    // Resubscribing from a position is exclusive on the server; this guard costs nothing.
    if (position && this.last && comparePositions(position, this.last) <= 0) return;
    let event: RecordedEvent | null;
    try {
      event = fromResolved(resolved);
    } catch (error) {
      this.failAll(toError(error));
      return;
    }
    if (position) this.last = position;
    if (!event) return;
    for (const member of [...this.members]) member.fromShared(event);
  }

  private failAll(error: Error): void {
    const members = [...this.members];
    this.members.clear();
    this.close();
    for (const member of members) member.fail(error);
  }
}

/**
 * One port subscription: its own filter, start position, batching and pump. Catch-up reads `$all`
 * (server-side filtered) from its cursor; the last read is issued only once the shared stream is
 * started, and events the shared stream hands on meanwhile are kept, so switching to live loses
 * nothing; the cursor (last queued position) drops what both delivered.
 */
export class EsdbMemberSubscription implements Subscription {
  private readonly pump: SubscriptionPump;
  /** Last queued position (exclusive start for the next read); undefined = from the beginning. */
  private cursor: Position | undefined;
  private mode: 'waiting' | 'catch-up' | 'live';
  private reading = false;
  /** Shared events received while the current catch-up read was in flight. */
  private joinBuffer: RecordedEvent[] | undefined;
  private readonly highWater: number;
  private readonly filter: EventFilter | undefined;

  constructor(
    private readonly source: EsdbSubscriptionSource,
    private readonly shared: EsdbSharedSubscription,
    options: SubscribeOptions,
    handlers: SubscriptionHandlers,
    private readonly detach: (s: EsdbMemberSubscription) => void,
  ) {
    const from = options.fromPosition ?? 'start';
    this.filter = options.filter;
    const maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    this.pump = new SubscriptionPump(handlers, maxBatchSize, {
      onLow: () => this.readMore(),
      onHalt: () => this.leave(),
    });
    this.highWater = Math.max(4 * maxBatchSize, 10_000);
    this.cursor = typeof from === 'object' ? from : undefined;
    // 'end' waits for the shared stream and starts at its position; the others catch up first.
    this.mode = from === 'end' ? 'waiting' : 'catch-up';
    this.pump.start();
    shared.add(this);
  }

  /** The shared stream has a known position: an 'end' member goes live from there. */
  sharedReady(): void {
    if (this.pump.isStopped) return;
    if (this.mode === 'catch-up') return this.readMore();
    if (this.mode !== 'waiting') return;
    this.cursor = this.shared.lastPosition;
    this.mode = 'live';
    this.pump.markCaughtUp();
  }

  fromShared(event: RecordedEvent): void {
    if (this.pump.isStopped) return;
    if (this.mode === 'live') {
      this.take(event);
      // A slow handler must not make us hold the log in memory: fall back to reading.
      if (this.pump.queued >= this.highWater) this.mode = 'catch-up';
    } else if (this.joinBuffer) {
      this.joinBuffer.push(event);
      if (this.joinBuffer.length > this.highWater) this.joinBuffer = undefined;
    }
  }

  fail(error: Error): void {
    this.pump.fail(error);
  }

  async stop(): Promise<void> {
    this.pump.stop();
  }

  private take(event: RecordedEvent): void {
    if (this.cursor && comparePositions(event.position, this.cursor) <= 0) return;
    if (!matchesFilter(event, this.filter)) return;
    this.cursor = event.position;
    this.pump.push(event);
  }

  /** Pump hook: the queue is low; read the next page while catching up. */
  private readMore(): void {
    if (this.mode !== 'catch-up' || this.reading || this.pump.isStopped) return;
    this.reading = true;
    const limit = this.pump.maxBatchSize;
    // Only a read issued after the shared stream started can be the last one.
    const canJoin = this.shared.isStarted;
    this.joinBuffer = canJoin ? [] : undefined;
    void withRetry(
      this.source.retry,
      () => this.source.readAfter(this.cursor, this.filter, limit),
      () => this.pump.isStopped,
    ).then(
      (page) => {
        this.reading = false;
        if (this.pump.isStopped) return;
        for (const event of page) this.take(event);
        const buffered = this.joinBuffer;
        this.joinBuffer = undefined;
        if (page.length < limit && canJoin && buffered) {
          for (const event of buffered) this.take(event);
          this.mode = 'live';
          this.pump.markCaughtUp();
        } else if (page.length < limit && !canJoin) {
          // Caught up with the log but not yet joined: sharedReady() reads once more.
          if (this.shared.isStarted) this.readMore();
        } else if (this.pump.queued < this.pump.maxBatchSize) {
          this.readMore();
        }
      },
      (error: unknown) => {
        this.reading = false;
        this.pump.fail(toError(error));
      },
    );
  }

  private leave(): void {
    this.shared.remove(this);
    this.detach(this);
  }
}
