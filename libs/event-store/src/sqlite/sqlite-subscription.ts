import type {
  EventFilter,
  RecordedEvent,
  Subscription,
  SubscriptionHandlers,
} from '../event-store.port';
import { matchesFilter } from '../shared/event-filter';
import { SubscriptionPump } from '../shared/subscription-pump';

/** What a subscription needs from the store: a synchronous page read of `$all`. */
export interface SqliteAllReader {
  /** Reported events with global_position > after, matching the filter, in order, at most `limit`. */
  readAfter(after: bigint, filter: EventFilter | undefined, limit: number): RecordedEvent[];
}

/**
 * Catch-up by paging the table, then live from in-process notifications.
 *
 * Gap-free switch: the store's page reads never go past the last commit its writer has reported (the
 * head of $all before the transaction in flight), and it calls onCommitted when a commit is reported,
 * on this thread. So when a page read comes back short it has seen every reported event, and every
 * later one arrives through onCommitted. The cursor (last queued position) drops any overlap.
 */
export class SqliteSubscription implements Subscription {
  private readonly pump: SubscriptionPump;
  private live: boolean;
  /** Beyond this many queued live events, stop buffering and page from the table again. */
  private readonly highWater: number;

  constructor(
    private readonly reader: SqliteAllReader,
    /** Exclusive start position (0 = from the beginning). */
    private cursor: bigint,
    startLive: boolean,
    private readonly filter: EventFilter | undefined,
    maxBatchSize: number,
    handlers: SubscriptionHandlers,
    private readonly detach: (subscription: SqliteSubscription) => void,
  ) {
    this.pump = new SubscriptionPump(handlers, maxBatchSize, {
      onLow: () => this.readPage(),
      onHalt: () => this.detach(this),
    });
    this.highWater = Math.max(4 * maxBatchSize, 10_000);
    this.live = startLive;
    if (startLive) this.pump.markCaughtUp();
  }

  start(): void {
    this.pump.start();
  }

  /** Called by the store right after a flush commits, with its events in position order. */
  onCommitted(events: readonly RecordedEvent[]): void {
    if (!this.live || this.pump.isStopped) return;
    for (const event of events) {
      if (event.position.commit <= this.cursor || !matchesFilter(event, this.filter)) continue;
      this.pump.push(event);
      this.cursor = event.position.commit;
    }
    // A slow handler must not make us hold the whole log in memory: fall back to paging.
    if (this.pump.queued >= this.highWater) this.live = false;
  }

  /** Pump hook: runs when the queue runs low. Only reads while not live. */
  private readPage(): void {
    if (this.live || this.pump.isStopped) return;
    const limit = this.pump.maxBatchSize;
    const page = this.reader.readAfter(this.cursor, this.filter, limit);
    for (const event of page) {
      this.pump.push(event);
      this.cursor = event.position.commit;
    }
    if (page.length < limit) {
      this.live = true;
      this.pump.markCaughtUp();
    }
  }

  /** Called by the store when it closes, and by users. */
  stop(): Promise<void> {
    this.pump.stop();
    return Promise.resolve();
  }
}
