import { Readable, Transform, type TransformCallback } from 'node:stream';
import {
  AccessDeniedError,
  MaxAppendSizeExceededError,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type EventStoreDBClient,
  type Filter,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';

/**
 * Test double for the subset of EventStoreDBClient that EsdbEventStore uses, so the adapter's own
 * logic (mapping, paging, exclusivity, system events, catch-up detection, backpressure) runs on
 * machines where no server can. It mimics the server as documented: reads from a position are
 * inclusive, subscriptions from a position exclusive, `$all` holds system records, a missing
 * stream throws StreamNotFoundError while iterating. Appends behave as a production server's do:
 * MaxAppendSize enforced, event ids deduplicated only at the same expected revision or (with `any`)
 * from a bounded recent-ids cache, and on request answers lost after the write, leader changes,
 * appends arriving out of order, positions unknown (before 22.6) and `$all` access denied. It proves
 * nothing about the wire protocol: the contract suite against a real server (EVENT_STORE_URL) does.
 */
export interface FakeEsdbOptions {
  /** Servers ≥ 23.10 send CaughtUp; older ones only checkpoints. */
  readonly sendsCaughtUp: boolean;
  /**
   * Like `throwOnAppendFailure=false` in the connection string: a wrong expected revision comes back
   * as `{ success: false, nextExpectedRevision, position: undefined }`, with client 6.2.1's batch
   * append bug: nextExpectedRevision is `BigInt(hasCurrentStreamRevision())`, so 1n whenever the
   * stream exists (whatever its revision) and -1n when it does not.
   */
  readonly throwOnAppendFailure?: boolean;
  /** The server's MaxAppendSize: data + metadata bytes of one append. Default 1,048,576. */
  readonly maxAppendSize?: number;
  /**
   * How many recently written event ids the server remembers for `any` appends (its commit cache);
   * an `any` append of ids that fell out of it is written again. Default 10,000.
   */
  readonly recentIdsCacheSize?: number;
  /**
   * Appends in flight together reach the "server" in reverse call order, as separate gRPC calls
   * may: a pipeline of appends with numeric expected revisions then fails unless the caller orders.
   */
  readonly reorderAppends?: boolean;
  /**
   * A server before 22.6: append results and stream reads carry commit position 2^64-1 ("not
   * known"); `$all` reads carry real positions.
   */
  readonly unknownPositions?: boolean;
  /** The user may not read `$all` (not in $admins/$ops, no $all ACL): readAll fails AccessDenied. */
  readonly denyAllReads?: boolean;
  /** Clock for recorded times (ms since epoch). Default Date.now. */
  readonly now?: () => number;
}

/** What servers before 22.6 send for a commit position they do not know: 2^64-1. */
export const FAKE_UNKNOWN_POSITION = 18446744073709551615n;
const DEFAULT_MAX_APPEND_SIZE = 1_048_576;
const DEFAULT_RECENT_IDS = 10_000;

export type FakeOperation = 'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll';

/** What the fake has sent, so tests can tell a server-side filter from a client-side scan. */
export interface FakeEsdbStats {
  readAllCalls: number;
  readStreamCalls: number;
  /** Records sent by readAll calls (what crossed the "wire"). */
  readAllRecords: number;
  subscriptionsOpened: number;
}

interface StoredRecord {
  readonly streamId: string;
  readonly id: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
  readonly revision: bigint;
  readonly position: Position;
  readonly created: Date;
}

interface JsonEventInput {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
}

type Message =
  | { readonly kind: 'confirmation' }
  | { readonly kind: 'caughtUp' }
  | { readonly kind: 'checkpoint'; readonly position: Position }
  | { readonly kind: 'event'; readonly record: StoredRecord };

export class FakeEsdbClient {
  private readonly log: StoredRecord[] = [];
  private readonly subscriptions = new Set<FakeSubscription>();
  private nextPosition = 1000n;
  private readonly faults: Array<{ operation: FakeOperation; error: Error; skip: number }> = [];
  private readonly lostAnswers: Array<{ error: Error; afterWrite?: () => void }> = [];
  /** Event id → where it was written, oldest first; bounded like the server's commit cache. */
  private readonly recentIds = new Map<string, { streamId: string; revision: bigint }>();
  private arrivals: Array<() => void> = [];
  /** Soft-deleted streams: their `$tb` (reads start there; `$all` keeps the events, no scavenge). */
  private readonly truncatedBefore = new Map<string, bigint>();
  /** Appends the fake answered, in the order it processed them. */
  readonly appendLog: Array<{ streamId: string; expected: string }> = [];
  readonly stats: FakeEsdbStats = {
    readAllCalls: 0,
    readStreamCalls: 0,
    readAllRecords: 0,
    subscriptionsOpened: 0,
  };

  constructor(private readonly options: FakeEsdbOptions) {
    this.writeSystem('$settings', '$metadata');
    this.writeSystem('$scavenges', '$scavengeStarted');
  }

  asClient(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }

  /** The next `times` calls of `operation` fail with `error` (reads: while iterating, as the client does). */
  failNext(operation: FakeOperation, error: Error, times = 1): void {
    for (let i = 0; i < times; i += 1) this.faults.push({ operation, error, skip: 0 });
  }

  /** The call of `operation` after the next `skip` ones fails with `error` (e.g. a split append's second call). */
  failAfter(operation: FakeOperation, skip: number, error: Error): void {
    this.faults.push({ operation, error, skip });
  }

  /**
   * The next append is written, then its answer is lost: the caller gets `error` (a timeout, a
   * leader change) although the events are stored. `afterWrite` runs right after the write (other
   * writers appending before the caller looks).
   */
  loseNextAppendAnswer(error: Error, afterWrite?: () => void): void {
    this.lostAnswers.push({ error, ...(afterWrite ? { afterWrite } : {}) });
  }

  /** Drops every open subscription with `error`, as a lost connection does mid-stream. */
  breakSubscriptions(error: Error): void {
    for (const subscription of [...this.subscriptions]) {
      this.subscriptions.delete(subscription);
      subscription.breakWith(error);
    }
  }

  get openSubscriptions(): number {
    return this.subscriptions.size;
  }

  /** Writes a record the way another process (or the server itself) would, e.g. `$`-prefixed ones. */
  writeForeign(streamId: string, type: string): void {
    this.writeSystem(streamId, type);
  }

  private takeFault(operation: FakeOperation): Error | undefined {
    const index = this.faults.findIndex((f) => f.operation === operation);
    const fault = this.faults[index];
    if (!fault) return undefined;
    if (fault.skip > 0) {
      fault.skip -= 1;
      return undefined;
    }
    return this.faults.splice(index, 1)[0]!.error;
  }

  async appendToStream(
    streamName: string,
    events: readonly JsonEventInput[],
    { expectedRevision = 'any' }: { expectedRevision?: AppendExpectedRevision } = {},
  ): Promise<{ success: boolean; nextExpectedRevision: bigint; position: Position | undefined }> {
    await this.arrive(); // a network round trip, so appends interleave
    this.appendLog.push({ streamId: streamName, expected: String(expectedRevision) });
    const fault = this.takeFault('appendToStream');
    if (fault) throw fault;
    const size = events.reduce(
      (sum, e) => sum + byteLength(e.data) + byteLength(e.metadata ?? {}),
      0,
    );
    const maxAppendSize = this.options.maxAppendSize ?? DEFAULT_MAX_APPEND_SIZE;
    if (size > maxAppendSize) throw MaxAppendSizeExceededError.fromMaxAppendSize(maxAppendSize);
    const current = this.currentRevision(streamName);
    const idempotent = this.idempotentResult(streamName, events, expectedRevision, current);
    if (idempotent) return this.answer(idempotent);
    const ok =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && current === undefined) ||
      (expectedRevision === 'stream_exists' && current !== undefined) ||
      (typeof expectedRevision === 'bigint' && current === expectedRevision);
    if (!ok && this.options.throwOnAppendFailure === false) {
      // Client 6.2.1 batchAppend: BigInt(hasCurrentStreamRevision()), a boolean made a number.
      const buggy = current === undefined ? -1n : 1n;
      return { success: false, nextExpectedRevision: buggy, position: undefined };
    }
    if (!ok) {
      throw new WrongExpectedVersionError(undefined, {
        streamName,
        expected: expectedRevision,
        current: current ?? 'no_stream',
      });
    }
    let revision = current ?? -1n;
    let last: StoredRecord | undefined;
    for (const event of events) {
      revision += 1n;
      last = this.write({
        streamId: streamName,
        id: event.id,
        type: event.type,
        data: JSON.stringify(event.data),
        metadata: JSON.stringify(event.metadata ?? {}),
        revision,
      });
      this.remember(event.id, streamName, revision);
    }
    // The server interleaves its own records; readers must skip them.
    this.writeSystem(`$stats-127.0.0.1:2113`, '$statsCollected');
    return this.answer({ success: true, nextExpectedRevision: revision, position: last!.position });
  }

  private answer(result: { success: true; nextExpectedRevision: bigint; position: Position }): {
    success: true;
    nextExpectedRevision: bigint;
    position: Position;
  } {
    const lost = this.lostAnswers.shift();
    if (lost) {
      lost.afterWrite?.();
      throw lost.error;
    }
    if (!this.options.unknownPositions) return result;
    return {
      ...result,
      position: { commit: FAKE_UNKNOWN_POSITION, prepare: FAKE_UNKNOWN_POSITION },
    };
  }

  /** Resolves when the append "reaches the server": next tick, or in reverse order when reordering. */
  private arrive(): Promise<void> {
    if (!this.options.reorderAppends) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      this.arrivals.push(resolve);
      if (this.arrivals.length > 1) return;
      setImmediate(() => {
        const arrived = this.arrivals.reverse();
        this.arrivals = [];
        for (const release of arrived) release();
      });
    });
  }

  private remember(id: string, streamId: string, revision: bigint): void {
    this.recentIds.delete(id);
    this.recentIds.set(id, { streamId, revision });
    const size = this.options.recentIdsCacheSize ?? DEFAULT_RECENT_IDS;
    while (this.recentIds.size > size) this.recentIds.delete(this.recentIds.keys().next().value!);
  }

  /**
   * The server's idempotency check: the same event ids sent again with the expected revision of the
   * write that stored them succeed without writing, answering that write's revision and position;
   * with `any` (or stream_exists) only while the first id is in the recent-ids cache. Anything else
   * is an ordinary append: the ids are written again at the later revision.
   */
  private idempotentResult(
    streamName: string,
    events: readonly JsonEventInput[],
    expected: AppendExpectedRevision,
    current: bigint | undefined,
  ): { success: true; nextExpectedRevision: bigint; position: Position } | undefined {
    const stream = this.log.filter((r) => r.streamId === streamName);
    const first = events[0];
    if (!first || current === undefined) return undefined;
    let start: number;
    if (expected === 'any' || expected === 'stream_exists') {
      const cached = this.recentIds.get(first.id);
      if (!cached || cached.streamId !== streamName) return undefined;
      start = Number(cached.revision);
    } else {
      start = expected === 'no_stream' ? 0 : Number(expected) + 1;
      if (BigInt(start) > current) return undefined;
    }
    const stored = stream.slice(start, start + events.length);
    if (stored.length !== events.length || stored.some((r, i) => r.id !== events[i]!.id)) {
      return undefined;
    }
    const last = stored[stored.length - 1]!;
    return { success: true, nextExpectedRevision: last.revision, position: last.position };
  }

  readStream(
    streamName: string,
    options: {
      direction?: string;
      fromRevision?: 'start' | 'end' | bigint;
      maxCount?: number | bigint;
    } = {},
  ): Readable {
    this.stats.readStreamCalls += 1;
    const truncated = this.truncatedBefore.get(streamName) ?? 0n;
    const records = this.log.filter((r) => r.streamId === streamName && r.revision >= truncated);
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const selected = backwards
      ? records
          .filter(
            (r) => from === 'end' || (from === 'start' ? r.revision === 0n : r.revision <= from),
          )
          .reverse()
      : records.filter((r) => from === 'start' || (from !== 'end' && r.revision >= from));
    const unknown = this.options.unknownPositions === true;
    const slice = selected.slice(0, max).map((r) => resolve(r, unknown));
    const fault = this.takeFault('readStream');
    return Readable.from(
      (async function* () {
        if (fault) throw fault;
        if (records.length === 0) throw new StreamNotFoundError(undefined, streamName);
        yield* slice;
      })(),
    );
  }

  readAll(
    options: {
      direction?: string;
      fromPosition?: 'start' | 'end' | Position;
      maxCount?: number | bigint;
      /** Not in client 6.2.1's readAll (the adapter sends it through the Read call, see esdb-reads.ts). */
      filter?: Filter;
    } = {},
  ): Readable {
    const backwards = options.direction === 'backwards';
    const from = options.fromPosition ?? (backwards ? 'end' : 'start');
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const filter = options.filter;
    // Inclusive of `from` forwards; strictly before it backwards. maxCount counts matching records.
    const selected = (
      backwards
        ? this.log
            .filter((r) => from === 'end' || (from !== 'start' && r.position.commit < from.commit))
            .reverse()
        : this.log.filter(
            (r) => from === 'start' || (from !== 'end' && r.position.commit >= from.commit),
          )
    ).filter((r) => !filter || passes(filter, r));
    const page = selected.slice(0, max).map((r) => resolve(r));
    this.stats.readAllCalls += 1;
    this.stats.readAllRecords += page.length;
    const fault =
      this.takeFault('readAll') ??
      (this.options.denyAllReads ? new AccessDeniedError() : undefined);
    return Readable.from(
      (async function* () {
        if (fault) throw fault;
        yield* page;
      })(),
    );
  }

  subscribeToAll(
    options: { fromPosition?: 'start' | 'end' | Position; filter?: Filter } = {},
  ): FakeSubscription {
    const subscription = new FakeSubscription(options.filter, (s) => this.subscriptions.delete(s));
    const from = options.fromPosition ?? 'start';
    this.stats.subscriptionsOpened += 1;
    const fault = this.takeFault('subscribeToAll');
    setImmediate(() => {
      if (fault) return subscription.breakWith(fault);
      subscription.deliver({ kind: 'confirmation' });
      if (from !== 'end') {
        let last: Position | undefined;
        for (const record of this.log) {
          if (from !== 'start' && record.position.commit <= from.commit) continue;
          subscription.offer(record);
          last = record.position;
        }
        if (last) subscription.deliver({ kind: 'checkpoint', position: last });
      }
      if (this.options.sendsCaughtUp) subscription.deliver({ kind: 'caughtUp' });
      this.subscriptions.add(subscription);
    });
    return subscription;
  }

  /** A soft delete, as the server does it: revisions go on if the stream is written again. */
  async deleteStream(streamName: string): Promise<{ position: Position }> {
    const revision = this.currentRevision(streamName);
    if (revision === undefined) throw new StreamNotFoundError(undefined, streamName);
    this.truncatedBefore.set(streamName, revision + 1n);
    return { position: { commit: this.nextPosition, prepare: this.nextPosition } };
  }

  async dispose(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.end();
  }

  private currentRevision(streamName: string): bigint | undefined {
    for (let i = this.log.length - 1; i >= 0; i -= 1) {
      const record = this.log[i]!;
      if (record.streamId === streamName) return record.revision;
    }
    return undefined;
  }

  private writeSystem(streamId: string, type: string): void {
    const revision = this.currentRevision(streamId);
    this.write({
      streamId,
      id: crypto.randomUUID(),
      type,
      data: '{}',
      metadata: '{}',
      revision: (revision ?? -1n) + 1n,
    });
  }

  private write(record: Omit<StoredRecord, 'position' | 'created'>): StoredRecord {
    // Positions are byte offsets on a real server: increasing, with gaps.
    this.nextPosition += 37n + BigInt(record.data.length);
    const stored = {
      ...record,
      position: { commit: this.nextPosition, prepare: this.nextPosition },
      created: new Date(this.options.now?.() ?? Date.now()),
    };
    this.log.push(stored);
    for (const subscription of this.subscriptions) subscription.offer(stored);
    return stored;
  }
}

/** Mimics the client's Subscription: a Transform that turns server messages into events and signals. */
class FakeSubscription extends Transform {
  private cancelled = false;

  constructor(
    private readonly serverFilter: Filter | undefined,
    private readonly detach: (s: FakeSubscription) => void,
  ) {
    super({ objectMode: true });
  }

  offer(record: StoredRecord): void {
    if (this.cancelled) return;
    if (this.serverFilter && !passes(this.serverFilter, record)) return;
    this.deliver({ kind: 'event', record });
  }

  deliver(message: Message): void {
    if (!this.cancelled) this.write(message);
  }

  override _transform(message: Message, _encoding: BufferEncoding, next: TransformCallback): void {
    switch (message.kind) {
      case 'confirmation':
        this.emit('confirmation');
        return next();
      case 'caughtUp':
        this.emit('caughtUp');
        return next();
      case 'checkpoint':
        // The real client awaits this callback before reading on.
        void Promise.resolve(
          this.serverFilter?.checkpointReached?.(this as never, message.position),
        ).then(
          () => next(),
          (error: Error) => next(error),
        );
        return;
      case 'event':
        return next(null, resolve(message.record));
    }
  }

  /** The connection broke: the client emits the error and the stream delivers nothing more. */
  breakWith(error: Error): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.detach(this);
    this.emit('error', error);
  }

  async unsubscribe(): Promise<void> {
    this.cancelled = true;
    this.detach(this);
  }
}

function passes(filter: Filter, record: StoredRecord): boolean {
  const subject = filter.filterOn === 'eventType' ? record.type : record.streamId;
  if ('regex' in filter) return new RegExp(filter.regex).test(subject);
  return filter.prefixes.some((p) => subject.startsWith(p));
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
}

function resolve(record: StoredRecord, unknownPosition = false): ResolvedEvent {
  const position = unknownPosition
    ? { commit: FAKE_UNKNOWN_POSITION, prepare: FAKE_UNKNOWN_POSITION }
    : record.position;
  return {
    event: {
      streamId: record.streamId,
      id: record.id,
      isJson: true,
      revision: record.revision,
      type: record.type,
      created: record.created,
      data: JSON.parse(record.data) as Record<string, unknown>,
      metadata: JSON.parse(record.metadata) as Record<string, unknown>,
      position,
    },
    commitPosition: position.commit,
  };
}
