import {
  END,
  START,
  type AllStreamSubscription,
  type EventStoreDBClient,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  comparePositions,
  type Position,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionHandlers,
} from '../event-store.port';
import { matchesFilter } from '../shared/event-filter';
import { DEFAULT_MAX_BATCH_SIZE, SubscriptionPump } from '../shared/subscription-pump';
import { toError } from '../shared/to-error';
import { toServerFilter } from './esdb-filter';
import { fromResolved, rawPosition } from './esdb-mapping';

/**
 * A `$all` catch-up subscription on EventStoreDB, delivered through the shared pump.
 *
 * Catch-up is detected by whichever comes first: the server's CaughtUp message (the client emits
 * 'caughtUp', servers ≥ 23.10), or an event/checkpoint at or past the head read at subscribe time
 * (older servers). From 'end', the server's confirmation means live.
 */
export class EsdbSubscription implements Subscription {
  private readonly pump: SubscriptionPump;
  private readonly stream: AllStreamSubscription;
  private readonly after: Position | undefined;
  /** Head (non-system) at subscribe time; undefined until read, null for an empty store. */
  private head: Position | null | undefined;
  private lastSeen: Position | undefined;
  private caughtUpSeen = false;
  /** Events the client had buffered when CaughtUp arrived: they precede it and must go first. */
  private beforeCaughtUp: number | undefined;
  private paused = false;
  private unsubscribing: Promise<void> | undefined;

  constructor(
    client: EventStoreDBClient,
    private readonly options: SubscribeOptions,
    handlers: SubscriptionHandlers,
    readHead: () => Promise<Position | null>,
    private readonly detach: (subscription: EsdbSubscription) => void,
  ) {
    const from = options.fromPosition ?? 'start';
    const maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    this.after = typeof from === 'object' ? from : undefined;
    this.pump = new SubscriptionPump(handlers, maxBatchSize, {
      onLow: () => this.resume(),
      onHalt: () => void this.unsubscribe(),
    });
    this.stream = client.subscribeToAll({
      fromPosition: from === 'start' ? START : from === 'end' ? END : from,
      filter: toServerFilter(options.filter, (position) => this.onCheckpoint(position)),
    });
    this.stream.on('data', (resolved: ResolvedEvent) => this.onData(resolved));
    this.stream.on('caughtUp', () => this.signalCaughtUp());
    this.stream.on('confirmation', () => {
      if (from === 'end') this.signalCaughtUp();
    });
    this.stream.on('error', (error: Error) => this.pump.fail(error));
    this.stream.on('end', () => this.pump.fail(new Error('EventStoreDB ended the subscription')));
    this.pump.start();

    if (from !== 'end') {
      readHead().then(
        (head) => {
          this.head = head;
          if (head === null || this.reached(this.after) || this.reached(this.lastSeen))
            this.signalCaughtUp();
        },
        (error: unknown) => this.pump.fail(toError(error)),
      );
    }
  }

  async stop(): Promise<void> {
    this.pump.stop();
    await this.unsubscribe();
  }

  private onData(resolved: ResolvedEvent): void {
    const position = rawPosition(resolved);
    // From a position is exclusive on the server already; this guard costs nothing.
    const fresh = !position || !this.after || comparePositions(position, this.after) > 0;
    if (position) this.lastSeen = position;
    if (fresh) {
      try {
        const event = fromResolved(resolved);
        if (event && matchesFilter(event, this.options.filter)) this.pump.push(event);
      } catch (error) {
        this.pump.fail(toError(error));
        return;
      }
    }
    if (this.beforeCaughtUp !== undefined) {
      this.beforeCaughtUp -= 1;
      if (this.beforeCaughtUp <= 0) {
        this.beforeCaughtUp = undefined;
        this.pump.markCaughtUp();
      }
    } else if (!this.caughtUpSeen && this.reached(position)) {
      // Everything up to this event is already queued.
      this.caughtUpSeen = true;
      this.pump.markCaughtUp();
    }
    // Backpressure: stop reading from the server while the handler is behind.
    if (!this.paused && this.pump.queued >= 2 * this.pump.maxBatchSize) {
      this.paused = true;
      this.stream.pause();
    }
  }

  private onCheckpoint(position: Position): void {
    this.lastSeen = position;
    if (this.reached(position)) this.signalCaughtUp();
  }

  private signalCaughtUp(): void {
    if (this.caughtUpSeen) return;
    this.caughtUpSeen = true;
    // Signals come from the transform side; events it already produced may still sit in the
    // readable buffer, and they belong before the catch-up point.
    const buffered = this.stream.readableLength;
    if (buffered === 0) this.pump.markCaughtUp();
    else this.beforeCaughtUp = buffered;
  }

  private reached(position: Position | undefined): boolean {
    if (!position || this.head === undefined) return false;
    return this.head === null || comparePositions(position, this.head) >= 0;
  }

  private resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.stream.resume();
  }

  private unsubscribe(): Promise<void> {
    this.unsubscribing ??= (async () => {
      this.detach(this);
      try {
        await this.stream.unsubscribe();
      } catch {
        // Already gone (the server closed it or the client was disposed).
      }
    })();
    return this.unsubscribing;
  }
}
