import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { AppendResult, EventData, EventStore, Position } from '@tollgate/event-store';
import {
  usageStreamId,
  type Actor,
  type RequestFailed,
  type RequestRelayed,
} from '@tollgate/domain';
import { chunkBySize, eventBytes } from '@tollgate/event-store';
import { APPEND_LIMITS } from '../infrastructure/append-chunks';
import { requestDerivedId } from '../infrastructure/derived-id';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { PendingWrites } from '../infrastructure/pending-writes';
import { SCHEMA_VERSION } from '../infrastructure/stream-commands';

export interface UsageMeta {
  readonly ip?: string;
  readonly actor: Actor;
  readonly correlationId: string;
}

/** Told of each receipt's time from queued to committed; must not throw. */
export interface ReceiptDurabilityObserver {
  receiptDurable(seconds: number): void;
}

/** This thread's start on the wall clock: fixed, so read once. */
const TIME_ORIGIN = performance.timeOrigin;

/** The wall clock to a fraction of a ms, comparable with an engine's `committedAt`. */
const preciseNow = (): number => TIME_ORIGIN + performance.now();

interface Pending {
  readonly stream: string;
  readonly event: EventData;
  /** preciseNow() when it was queued; a merged Pending keeps the earliest. */
  readonly queuedAt: number;
  readonly resolve: (position: Position) => void;
  readonly reject: (error: Error) => void;
}

/** Several callers waiting on one event: one Pending that settles them all. */
function merge(items: readonly Pending[]): Pending {
  const [first] = items;
  if (items.length === 1 && first) return first;
  return {
    stream: items[0]!.stream,
    event: items[0]!.event,
    queuedAt: items[0]!.queuedAt,
    resolve: (position) => items.forEach((i) => i.resolve(position)),
    reject: (error) => items.forEach((i) => i.reject(error)),
  };
}

const bytesOfPending = (item: Pending): number => eventBytes(item.event);

/**
 * A batch that goes at the next turn instead of waiting out the pacing window: under heavy load
 * (a few thousand requests a second) about 3 ms of receipts, what the window was before it grew
 * to 8 ms; under light load (one client's requests one after the other) the window ends first.
 */
const FULL_BATCH = 12;

/** The id of a receipt's event: derived from the request id, so a retry is a duplicate. */
export function usageEventId(requestId: string): string {
  return requestDerivedId('usage', requestId);
}

/** The id of a failed call's RequestFailed: derived from the request id, as a receipt's. */
export function failureEventId(requestId: string): string {
  return requestDerivedId('failure', requestId);
}

/**
 * Appends the RequestRelayed receipts (and the RequestFailed of failed calls, on the same streams): grouped per tick into one append per usage stream
 * (`usage-<process>-<hour>`, expected `any`, so appends never conflict), which the store commits in
 * one transaction. A tick's receipts past MAX_APPEND_BYTES (a latency spike queues many) go as
 * further appends, each settling its own receipts: EventStoreDB refuses an append over 1 MiB
 * whole, which would fail every receipt in it. A receipt appended twice (a retry) is recognised by
 * its derived event id and resolves as already durable.
 *
 * Paced (USAGE_BATCH_MS): the first receipt after a quiet spell goes on the next tick; later ones
 * wait until that many ms after the previous flush, or until FULL_BATCH receipts wait, whichever
 * comes first. At a request per millisecond every receipt was its own commit (an insert and an
 * fsync on the writer thread, which shares the relay's CPU); paced, a few milliseconds of receipts
 * share one, for at most that much more time to durability. A commit's fixed cost (the fsync) is
 * what the pacing spreads: under light load it came between one client's requests and held up
 * the next, so the window is long; under heavy load a full batch goes at the next turn, so the
 * receipts wait no longer than a short window would make them.
 */
@Injectable()
export class UsageAppender {
  /** Partition of this process's usage streams (alphanumeric: the stream id keeps one dash rule). */
  readonly processId = randomBytes(4).toString('hex');
  private queue: Pending[] = [];
  private scheduled = false;
  /** The pacing's timer while one is set: a full batch replaces it with the next turn. */
  private paced: NodeJS.Timeout | undefined;
  private lastFlushAt = -Infinity;
  private flushing: Promise<void> | undefined;
  private readonly batchMs: number;
  private observer: ReceiptDurabilityObserver | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(APP_CONFIG) config?: Pick<AppConfig, 'usageBatchMs'>,
    @Optional() pending?: PendingWrites,
  ) {
    this.batchMs = config?.usageBatchMs ?? 0;
    pending?.register(() => this.drained());
  }

  /** Told of every receipt's time to its commit (the metrics); one observer at a time. */
  observe(observer: ReceiptDurabilityObserver): void {
    this.observer = observer;
  }

  /** Resolves once every receipt queued so far was appended (or failed): a shutdown waits on it. */
  async drained(): Promise<void> {
    for (;;) {
      if (this.flushing) await this.flushing;
      else if (this.queue.length > 0) await this.runFlush();
      else return;
    }
  }

  /**
   * The receipts' time: their usage stream's hour and `occurredAt`. Replaced only by tests that
   * simulate days of traffic (retention).
   */
  clock: () => Date = () => new Date();

  append(receipt: RequestRelayed['data'], meta: UsageMeta, now = this.clock()): Promise<Position> {
    const id = usageEventId(receipt.requestId);
    return this.enqueue(id, 'RequestRelayed', receipt, meta, now);
  }

  /** A failed call's RequestFailed: batched with the receipts, no balance changes by it. */
  appendFailure(
    failure: RequestFailed['data'],
    meta: UsageMeta,
    now = this.clock(),
  ): Promise<Position> {
    const id = failureEventId(failure.requestId);
    return this.enqueue(id, 'RequestFailed', failure, meta, now);
  }

  private enqueue(
    id: string,
    type: string,
    data: RequestRelayed['data'] | RequestFailed['data'],
    meta: UsageMeta,
    now: Date,
  ): Promise<Position> {
    const event: EventData = {
      id,
      type,
      data,
      metadata: {
        schemaVersion: SCHEMA_VERSION,
        actor: meta.actor,
        ...(meta.ip ? { ip: meta.ip } : {}),
        correlationId: meta.correlationId,
        causationId: data.requestId,
        occurredAt: now.toISOString(),
      },
    };
    return new Promise<Position>((resolve, reject) => {
      const stream = usageStreamId(this.processId, now);
      this.queue.push({ stream, event, queuedAt: preciseNow(), resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        const wait = this.lastFlushAt + this.batchMs - performance.now();
        // Unref'd: a shutdown drains the queue itself (drained()), the timer must not hold a process.
        if (wait > 0) this.paced = setTimeout(() => void this.runFlush(), wait).unref();
        else setImmediate(() => void this.runFlush());
      } else if (this.paced !== undefined && this.queue.length >= FULL_BATCH) {
        clearTimeout(this.paced);
        this.paced = undefined;
        setImmediate(() => void this.runFlush());
      }
    });
  }

  /** One flush at a time is tracked, so a shutdown can wait for the one under way. */
  private runFlush(): Promise<void> {
    const run = this.flush().finally(() => {
      if (this.flushing === run) this.flushing = undefined;
    });
    this.flushing = run;
    return run;
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    // A drain (shutdown) may flush before the pacing's timer fires.
    clearTimeout(this.paced);
    this.paced = undefined;
    this.lastFlushAt = performance.now();
    // One receipt (a quiet spell, a paced flush under light load): no grouping to do.
    const [only] = batch;
    if (batch.length === 1 && only) return this.appendGroup(only.stream, batch);
    // Per stream, per event id: a receipt queued twice in one batch is one event, both callers
    // learn its outcome.
    const byStream = new Map<string, Map<string, Pending[]>>();
    for (const item of batch) {
      let events = byStream.get(item.stream);
      if (!events) byStream.set(item.stream, (events = new Map<string, Pending[]>()));
      const same = events.get(item.event.id);
      if (same) same.push(item);
      else events.set(item.event.id, [item]);
    }
    const appends: Array<Promise<void>> = [];
    for (const [stream, events] of byStream) {
      // Concurrent: expected `any`, so their order in the stream does not matter.
      for (const chunk of chunkBySize(
        [...events.values()].map(merge),
        bytesOfPending,
        APPEND_LIMITS,
      ))
        appends.push(this.appendGroup(stream, chunk));
    }
    await Promise.all(appends);
  }

  private async appendGroup(stream: string, items: readonly Pending[]): Promise<void> {
    try {
      const result = await this.store.append(
        stream,
        items.map((i) => i.event),
        'any',
      );
      this.durable(items, result);
    } catch (error) {
      if ((error as Error).name !== 'DuplicateEventIdError' || items.length === 0) {
        for (const item of items) item.reject(error as Error);
        return;
      }
      // Alone in its batch, the retry is the duplicate: already durable, nothing to append again.
      const [only] = items;
      if (items.length === 1 && only) return this.settleDuplicate(only);
      // One of them was appended before (a retry): append the others one by one.
      await Promise.all(items.map((item) => this.appendOne(stream, item)));
    }
  }

  private async appendOne(stream: string, item: Pending): Promise<void> {
    try {
      this.durable([item], await this.store.append(stream, [item.event], 'any'));
    } catch (error) {
      if ((error as Error).name === 'DuplicateEventIdError') await this.settleDuplicate(item);
      else item.reject(error as Error);
    }
  }

  /**
   * Committed: each receipt's time since it was queued goes to the observer, up to the commit
   * itself when the store knows it apart from its answer (SQLite's writer thread), else up to now.
   */
  private durable(items: readonly Pending[], result: AppendResult): void {
    const committedAt = result.committedAt ?? preciseNow();
    for (const item of items) {
      item.resolve(result.position);
      this.observer?.receiptDurable((committedAt - item.queuedAt) / 1000);
    }
  }

  /** Already durable (not observed again): the head is at or past it. */
  private async settleDuplicate(item: Pending): Promise<void> {
    try {
      const head = await this.store.headPosition();
      if (head) item.resolve(head);
      else item.reject(new Error('Duplicate usage receipt in an empty store'));
    } catch (error) {
      item.reject(error as Error);
    }
  }
}
