import type { RecordedEvent } from '@tollgate/event-store';
import type { BatchWrites, CollectionSpec, ReadStoreSession } from '@tollgate/read-store';
import { usageStreamHourStart, type UsageSummarized } from '@tollgate/domain';

/** A usage stream whose receipts a read model counted (its id is the stream's). */
export interface SummaryMarkerDocument {
  _id: string;
  counted: true;
}

/**
 * The reader rule for a persisted read model: one marker document per usage stream whose receipts
 * it counted, in a collection of its own (a rebuild drops it with the rest). A receipt buffers the
 * marker's upsert once per stream and batch (not per receipt); a summary runs through the
 * unbatched `apply`, after the batch's buffer is flushed, and counts only when no marker exists.
 */
export class SummaryMarkers {
  /** Streams already marked in a batch, keyed by its session (gone with its transaction). */
  private readonly marked = new WeakMap<ReadStoreSession, Set<string>>();

  constructor(readonly collection: string) {}

  get spec(): CollectionSpec {
    return { name: this.collection };
  }

  /** In `batched.apply`, for each counted receipt. */
  receipt(event: RecordedEvent, writes: BatchWrites, session: ReadStoreSession): void {
    let marked = this.marked.get(session);
    if (!marked) {
      marked = new Set();
      this.marked.set(session, marked);
    }
    // Checked before the id is parsed: most receipts of a batch share a stream already marked.
    if (marked.has(event.streamId)) return;
    if (usageStreamHourStart(event.streamId) === null) return;
    marked.add(event.streamId);
    writes.update(
      this.collection,
      event.streamId,
      { $setOnInsert: { counted: true } },
      { upsert: true },
    );
  }

  /** In `apply`: whether the summary counts here (none of its source's receipts were). */
  async counts(summary: UsageSummarized['data'], session: ReadStoreSession): Promise<boolean> {
    const marker = await session
      .collection<SummaryMarkerDocument>(this.collection)
      .get(summary.source);
    return !marker;
  }
}
