import type {
  AppendResult,
  EventData,
  EventFilter,
  EventStore,
  ExpectedRevision,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  SubscriptionHandlers,
} from '@tollgate/event-store/event-store.port';
import { WrongExpectedRevisionError } from '@tollgate/event-store/event-store.port';

/** Test double for the EventStore port: EventStoreDB semantics, kept in an array. Position n = n-th event. */
export class InMemoryEventStore implements EventStore {
  private readonly log: RecordedEvent[] = [];
  private readonly wakers = new Set<() => void>();

  async append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const actual = await this.streamRevision(streamId);
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && actual === null) ||
      (expected === 'stream_exists' && actual !== null) ||
      (typeof expected === 'number' && expected === actual);
    if (!ok) throw new WrongExpectedRevisionError(streamId, expected, actual);
    let revision = actual ?? -1;
    for (const event of events) {
      const n = BigInt(this.log.length + 1);
      this.log.push({
        id: event.id,
        type: event.type,
        data: structuredClone(event.data),
        metadata: event.metadata ?? {},
        streamId,
        revision: ++revision,
        position: { commit: n, prepare: n },
        recordedAt: new Date(),
      });
    }
    for (const wake of [...this.wakers]) wake();
    return { nextExpectedRevision: revision, position: this.log[this.log.length - 1]!.position };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    let events = this.log.filter((e) => e.streamId === streamId);
    if (options.direction === 'backwards') events = events.reverse();
    const from = options.fromRevision;
    if (typeof from === 'number') {
      events = events.filter((e) =>
        options.direction === 'backwards' ? e.revision <= from : e.revision >= from,
      );
    }
    return events.slice(0, options.maxCount ?? Infinity);
  }

  async streamRevision(streamId: string): Promise<number | null> {
    const events = await this.readStream(streamId, { direction: 'backwards', maxCount: 1 });
    return events[0]?.revision ?? null;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.log
      .slice(this.indexAfter(options.fromPosition ?? 'start'))
      .filter((e) => matches(e, options.filter))
      .slice(0, options.maxCount ?? Infinity);
  }

  async headPosition(): Promise<Position | null> {
    return this.log[this.log.length - 1]?.position ?? null;
  }

  subscribeToAll(options: SubscribeOptions, handlers: SubscriptionHandlers): Subscription {
    const from = options.fromPosition ?? 'start';
    let cursor = from === 'end' ? this.log.length : this.indexAfter(from);
    const caughtUpAt = this.log.length;
    const maxBatch = options.maxBatchSize ?? 500;
    let stopped = false;
    let caughtUpSent = false;
    let wake: () => void = () => undefined;
    const loop = async () => {
      await Promise.resolve(); // deliver asynchronously, like a real subscription
      while (!stopped) {
        if (!caughtUpSent && cursor >= caughtUpAt) {
          caughtUpSent = true;
          handlers.onCaughtUp?.();
        }
        if (cursor >= this.log.length) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            this.wakers.add(resolve);
          });
          this.wakers.delete(wake);
          continue;
        }
        const slice = this.log.slice(cursor, cursor + maxBatch);
        cursor += slice.length;
        const batch = slice.filter((e) => matches(e, options.filter));
        if (batch.length === 0) continue;
        try {
          await handlers.onEvents(batch);
        } catch (error) {
          stopped = true;
          handlers.onError?.(error as Error);
        }
      }
    };
    void loop();
    return {
      stop: async () => {
        stopped = true;
        wake();
      },
    };
  }

  async close(): Promise<void> {
    for (const wake of [...this.wakers]) wake();
  }

  private indexAfter(from: Position | 'start'): number {
    return from === 'start' ? 0 : Number(from.commit);
  }
}

function matches(event: RecordedEvent, filter: EventFilter | undefined): boolean {
  if (filter?.eventTypes && !filter.eventTypes.includes(event.type)) return false;
  if (filter?.streamPrefixes && !filter.streamPrefixes.some((p) => event.streamId.startsWith(p)))
    return false;
  return true;
}
