import type { RecordedEvent } from '@tollgate/event-store/event-store.port';
import type { CollectionSpec, ReadStoreSession } from '../read-store.port';
import type { BatchWrites } from './batch-writes';

/**
 * A read model fed from `$all`. Each collection belongs to exactly one projection (rebuilds and version
 * bumps drop them). Bump `version` whenever `apply` changes meaning: the runner then rebuilds.
 *
 * `apply` runs inside the batch's read-store transaction and must write only through `session`. On a
 * store without atomic transactions (MongoDB standalone) a crash can replay part of a batch, so writes
 * must then be idempotent: put whole documents keyed by id, and guard increments with the event's
 * position or stream revision.
 */
export interface Projection {
  readonly name: string;
  readonly version: number;
  readonly collections: readonly CollectionSpec[];
  /** `apply` (or `batched.apply`) sees only events of these types. */
  readonly eventTypes: readonly string[];
  apply(event: RecordedEvent, session: ReadStoreSession): Promise<void>;
  /**
   * Optional path for frequent events whose effect is updates of documents (counters, "latest"
   * fields), such as the usage receipts: instead of writing, `apply` puts its updates into the
   * batch's `writes`, which merges them per document and writes each once per batch. Events of other
   * types flush the buffer before their own `apply`, so every document sees its events in order.
   * `session` is for reads of collections these updates do not touch (they are not written yet).
   */
  readonly batched?: {
    /** A subset of `eventTypes`. */
    readonly eventTypes: readonly string[];
    apply(
      event: RecordedEvent,
      writes: BatchWrites,
      session: ReadStoreSession,
    ): void | Promise<void>;
  };
}

/**
 * The types the projections take in `batched` (the receipts): frequent, so a live batch of them
 * may wait out the runner's pacing, while any other event is applied at once.
 */
export function pacedEventTypes(projections: readonly Projection[]): ReadonlySet<string> {
  return new Set(projections.flatMap((p) => p.batched?.eventTypes ?? []));
}
