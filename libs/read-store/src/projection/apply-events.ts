import type { RecordedEvent } from '@tollgate/event-store/event-store.port';
import type { ReadStore, ReadStoreSession } from '../read-store.port';
import { BatchWrites } from './batch-writes';
import type { Projection } from './projection';
import { errorLabels } from './store-errors';

/** A projection failed on a batch; `cause` is its error. */
export class ProjectionFailure extends Error {
  override readonly name = 'ProjectionFailure';
  constructor(
    readonly projection: string,
    override readonly cause: Error,
  ) {
    super(`Projection ${projection} failed: ${cause.message}`, { cause });
  }
}

/**
 * Applies one projection's events of a batch inside the caller's transaction: `batched` event types
 * through a write buffer that coalesces per document (only when the store's transactions are atomic),
 * the rest one by one through `apply`, in log order.
 */
export async function applyEvents(
  projection: Projection,
  events: readonly RecordedEvent[],
  session: ReadStoreSession,
  readStore: Pick<ReadStore, 'atomicTransactions'>,
): Promise<void> {
  try {
    const { batched } = projection;
    if (!batched) {
      for (const event of events) await projection.apply(event, session);
      return;
    }
    const writes = new BatchWrites(readStore.atomicTransactions);
    const batchedTypes = new Set(batched.eventTypes);
    for (const event of events) {
      if (batchedTypes.has(event.type)) {
        // Most batched applies only buffer updates and return nothing: awaiting that would still
        // cost a turn of the microtask queue per event and projection (docs/performance-journal.md,
        // "The rebuild's batched applies without a turn of the microtask queue…").
        const applying = batched.apply(event, writes, session);
        if (applying) await applying;
        continue;
      }
      await writes.flush(session);
      await projection.apply(event, session);
    }
    await writes.flush(session);
  } catch (error) {
    // A labelled store error (MongoDB's TransientTransactionError on a write conflict or failover)
    // passes unwrapped: the driver's withTransaction retries the body only for a MongoError that
    // carries the label itself, and the runner's backoff recognises it the same way.
    if (errorLabels(error).length > 0) throw error;
    throw error instanceof ProjectionFailure
      ? error
      : new ProjectionFailure(
          projection.name,
          error instanceof Error ? error : new Error(String(error)),
        );
  }
}
