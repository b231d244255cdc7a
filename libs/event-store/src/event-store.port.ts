/**
 * The EventStore port. Semantics are EventStoreDB's, which the SQLite adapter emulates exactly:
 * 0-based stream revisions, expected revision checks, exclusive `$all` positions, catch-up then live
 * subscriptions.
 */
import type { MessagePort } from 'node:worker_threads';

/** `$all` position. Opaque to callers; compare only with `comparePositions`. */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/** Metadata is opaque to the store; the domain's envelope lives in libs/domain (EventMetadata). */
export type Metadata = Record<string, unknown>;

export interface EventData<T = unknown> {
  /** uuid; unique across the store (a duplicate id is rejected). */
  readonly id: string;
  /** PascalCase, past tense, never renamed. */
  readonly type: string;
  readonly data: T;
  readonly metadata?: Metadata;
}

export interface RecordedEvent<T = unknown> {
  readonly id: string;
  readonly type: string;
  readonly data: T;
  readonly metadata: Metadata;
  readonly streamId: string;
  /** 0-based revision within its stream. */
  readonly revision: number;
  readonly position: Position;
  readonly recordedAt: Date;
}

export interface AppendOptions {
  /**
   * Names this append for duplicate detection across time: an append carrying a key that an
   * earlier append already carried is refused with DuplicateEventIdError, however many events were
   * written to the stream since. Give it where a caller may repeat an append later (a command with
   * a caller-given id, an import batch). The embedded store needs no key (its event ids are unique
   * store-wide); an engine whose server deduplicates only recent ids records the key (see
   * docs/engines.md).
   */
  readonly idempotencyKey?: string;
}

export interface AppendResult {
  /** Revision of the last event written (what to pass as `expected` next time). */
  readonly nextExpectedRevision: number;
  /** `$all` position of the last event written. */
  readonly position: Position;
  /**
   * When the commit returned on the thread that made it, in ms since the epoch with a fraction
   * (`performance.timeOrigin + performance.now()` there): set by an engine that commits on another
   * thread (SQLite's writer), so a caller can tell the commit from the moment it heard of it.
   * Absent when the answer is all the caller can know (EventStoreDB acknowledges a commit).
   */
  readonly committedAt?: number;
}

export interface ReadStreamOptions {
  readonly direction?: 'forwards' | 'backwards';
  /** Inclusive. Default: 'start' forwards, 'end' backwards. */
  readonly fromRevision?: number | 'start' | 'end';
  readonly maxCount?: number;
}

export interface EventFilter {
  /** Exact event types to include. */
  readonly eventTypes?: readonly string[];
  /** Stream id prefixes to include, e.g. 'user-'. */
  readonly streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Default 'start' (everything). */
  readonly fromPosition?: Position | 'start';
  readonly maxCount?: number;
  readonly filter?: EventFilter;
}

export interface ReadAllPagesOptions {
  /** Exclusive. */
  readonly fromPosition: Position | 'start';
  /** Inclusive: the last page ends here. */
  readonly toPosition: Position;
  readonly pageSize: number;
  readonly filter?: EventFilter;
  /**
   * A second reader on another thread (a rebuild's second lane): every page goes to this port too,
   * read there with the store's `pagesFromPort`, and the read keeps the slower reader's pace; it
   * fails with SecondReaderStoppedError if that reader stops first. Only on a store whose `sharesPages`
   * is true.
   */
  readonly alsoTo?: MessagePort;
}

export interface SubscribeOptions {
  /** Exclusive. 'start' replays everything, 'end' only live events. */
  readonly fromPosition?: Position | 'start' | 'end';
  readonly filter?: EventFilter;
  /** Upper bound on the size of one delivered batch (default 500). */
  readonly maxBatchSize?: number;
}

export interface SubscriptionHandlers {
  /**
   * Receives events in `$all` order, in batches of 1..maxBatchSize. The next batch is delivered only
   * after the returned promise resolves; events arriving meanwhile are buffered and form the next
   * batch (natural batching under load).
   */
  onEvents(events: readonly RecordedEvent[]): Promise<void> | void;
  /**
   * Called as each event joins the buffer, before a batch delivers it: lets a handler that is
   * holding back (a projection runner pacing its batches) see what is waiting. Must not throw.
   */
  onQueued?(event: RecordedEvent): void;
  /** Called once, when the catch-up phase has delivered everything that existed at subscribe time. */
  onCaughtUp?(): void;
  /** A handler error or a transport error stops the subscription and lands here. */
  onError?(error: Error): void;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface EventStore {
  append(
    streamId: string,
    events: readonly EventData[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /** A missing stream reads as an empty array. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Revision of the stream's last event, or null when the stream does not exist. */
  streamRevision(streamId: string): Promise<number | null>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Optional, for a long replay (the offline rebuild): `$all` between two positions in pages. The
   * SQLite store reads and decodes the next pages on a thread of their own while the caller works
   * on one; a store without it is read page by page with readAll().
   */
  readAllPages?(options: ReadAllPagesOptions): AsyncIterable<RecordedEvent[]>;
  /** readAllPages takes `alsoTo` here (SQLite on a file, with more than one core). */
  readonly sharesPages?: boolean;
  /** Position of the last event in the store, or null when the store is empty. */
  headPosition(): Promise<Position | null>;
  subscribeToAll(options: SubscribeOptions, handlers: SubscriptionHandlers): Subscription;
  /**
   * Removes a stream (retention, docs/retention.md): afterwards it reads as missing and its
   * revision is null; other streams are untouched; removing a missing stream does nothing. SQLite
   * deletes its rows, so `$all` skips them; EventStoreDB soft-deletes it, and `$all` still returns
   * its events until the server's next scavenge (`deletedStreamsLeaveAll`).
   */
  deleteStream(streamId: string): Promise<void>;
  /** The ids of the existing streams whose id starts with `prefix`, in no set order. */
  listStreams(options: ListStreamsOptions): Promise<string[]>;
  close(): Promise<void>;
}

export interface ListStreamsOptions {
  /** E.g. 'usage-'. */
  readonly prefix: string;
}

export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** Current revision, or null when the stream does not exist. */
    readonly actual: number | null,
  ) {
    super(
      `Wrong expected revision on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`,
    );
  }
}

/** A `readAllPages({ alsoTo })` whose second reader stopped before the end: the read stops too. */
export class SecondReaderStoppedError extends Error {
  override readonly name = 'SecondReaderStoppedError';
  constructor() {
    super('The second reader of the event pages stopped before the end of its range');
  }
}

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** Stable text form, used to store checkpoints and return positions over the API. */
export function serializePosition(p: Position): string {
  return `${p.commit}/${p.prepare}`;
}

export function parsePosition(text: string): Position {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new Error(`Not a position: ${text}`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}
