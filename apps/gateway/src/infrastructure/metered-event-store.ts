import { performance } from 'node:perf_hooks';
import {
  comparePositions,
  type AppendOptions,
  type AppendResult,
  type EventData,
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
} from '@tollgate/event-store';

/** Told about every append through the port; must not throw. */
export interface AppendObserver {
  /** `events` were written to `streamId` (0 when the append failed) in `seconds`. */
  appended(streamId: string, events: number, seconds: number): void;
}

/**
 * The event store port as the app sees it: every call goes to the adapter unchanged; appends are
 * timed and counted for the metrics, and the last one is remembered (its position and when it
 * returned) as the log head's time for the projection lag.
 */
export class MeteredEventStore implements EventStore {
  private observer: AppendObserver | undefined;
  private lastPosition: Position | null = null;
  private lastAt = 0;

  constructor(private readonly inner: EventStore) {}

  observe(observer: AppendObserver): void {
    this.observer = observer;
  }

  /** The position of the last append this process made and its time (ms since the epoch). */
  lastAppend(): { readonly position: Position; readonly at: number } | null {
    return this.lastPosition && { position: this.lastPosition, at: this.lastAt };
  }

  async append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const started = performance.now();
    let written = 0;
    try {
      const result = await this.inner.append(streamId, events, expected, options);
      written = events.length;
      // Appends overlap: the head is the highest position returned, not the last to return.
      if (!this.lastPosition || comparePositions(result.position, this.lastPosition) > 0) {
        this.lastPosition = result.position;
        this.lastAt = Date.now();
      }
      return result;
    } finally {
      this.observer?.appended(streamId, written, (performance.now() - started) / 1000);
    }
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  streamRevision(streamId: string): Promise<number | null> {
    return this.inner.streamRevision(streamId);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  headPosition(): Promise<Position | null> {
    return this.inner.headPosition();
  }

  subscribeToAll(options: SubscribeOptions, handlers: SubscriptionHandlers): Subscription {
    return this.inner.subscribeToAll(options, handlers);
  }

  deleteStream(streamId: string): Promise<void> {
    return this.inner.deleteStream(streamId);
  }

  listStreams(options: ListStreamsOptions): Promise<string[]> {
    return this.inner.listStreams(options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
