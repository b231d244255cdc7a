import { Readable, Transform, type TransformCallback } from 'node:stream';
import {
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
 * stream throws StreamNotFoundError while iterating. It proves nothing about the wire protocol:
 * the contract suite against a real server (EVENT_STORE_URL) does that.
 */
export interface FakeEsdbOptions {
  /** Servers ≥ 23.10 send CaughtUp; older ones only checkpoints. */
  readonly sendsCaughtUp: boolean;
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

  constructor(private readonly options: FakeEsdbOptions) {
    this.writeSystem('$settings', '$metadata');
    this.writeSystem('$scavenges', '$scavengeStarted');
  }

  asClient(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }

  async appendToStream(
    streamName: string,
    events: readonly JsonEventInput[],
    { expectedRevision = 'any' }: { expectedRevision?: AppendExpectedRevision } = {},
  ): Promise<{ success: true; nextExpectedRevision: bigint; position: Position }> {
    await new Promise((resolve) => setImmediate(resolve)); // a network round trip, so appends interleave
    const current = this.currentRevision(streamName);
    const ok =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && current === undefined) ||
      (expectedRevision === 'stream_exists' && current !== undefined) ||
      (typeof expectedRevision === 'bigint' && current === expectedRevision);
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
        metadata: JSON.stringify(event.metadata),
        revision,
      });
    }
    // The server interleaves its own records; readers must skip them.
    this.writeSystem(`$stats-127.0.0.1:2113`, '$statsCollected');
    return { success: true, nextExpectedRevision: revision, position: last!.position };
  }

  readStream(
    streamName: string,
    options: {
      direction?: string;
      fromRevision?: 'start' | 'end' | bigint;
      maxCount?: number | bigint;
    } = {},
  ): Readable {
    const records = this.log.filter((r) => r.streamId === streamName);
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
    const slice = selected.slice(0, max).map(resolve);
    return Readable.from(
      (async function* () {
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
    } = {},
  ): Readable {
    const backwards = options.direction === 'backwards';
    const from = options.fromPosition ?? (backwards ? 'end' : 'start');
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    // Inclusive of `from` forwards; strictly before it backwards.
    const selected = backwards
      ? this.log
          .filter((r) => from === 'end' || (from !== 'start' && r.position.commit < from.commit))
          .reverse()
      : this.log.filter(
          (r) => from === 'start' || (from !== 'end' && r.position.commit >= from.commit),
        );
    return Readable.from(selected.slice(0, max).map(resolve));
  }

  subscribeToAll(
    options: { fromPosition?: 'start' | 'end' | Position; filter?: Filter } = {},
  ): FakeSubscription {
    const subscription = new FakeSubscription(options.filter, (s) => this.subscriptions.delete(s));
    const from = options.fromPosition ?? 'start';
    setImmediate(() => {
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
      created: new Date(),
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

function resolve(record: StoredRecord): ResolvedEvent {
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
      position: record.position,
    },
    commitPosition: record.position.commit,
  };
}
