import type { Position } from '@tollgate/event-store/event-store.port';
import { serializePosition } from '@tollgate/event-store/event-store.port';
import type { ReadStore, ReadStoreSession } from '../read-store.port';
import { CHECKPOINTS, type CheckpointDoc } from './checkpoint';

/*
 * On a store without atomic transactions (a standalone MongoDB, allowed with
 * READ_STORE_ALLOW_STANDALONE=on) a batch's writes land one by one: a crash half-way leaves part of
 * the batch applied, and replaying it from the checkpoint would count the `$inc` upserts twice. So
 * each projection's checkpoint document is marked "in batch" before its writes begin and the mark is
 * cleared by the checkpoint write that ends the batch; a mark still there means the read model may
 * hold part of a batch, and the projection is rebuilt from the log instead of resumed.
 */

/** Marks these projections as applying a batch that ends at `last`; call before its first write. */
export async function markInBatch(
  readStore: Pick<ReadStore, 'collection'>,
  projections: readonly string[],
  last: Position,
): Promise<void> {
  const checkpoints = readStore.collection<CheckpointDoc>(CHECKPOINTS);
  for (const name of projections)
    await checkpoints.update(name, { $set: { dirty: serializePosition(last) } }, { upsert: true });
}

/** Clears the mark without moving the checkpoint (another process already wrote a later one). */
export async function clearInBatch(session: ReadStoreSession, projection: string): Promise<void> {
  await session
    .collection<CheckpointDoc>(CHECKPOINTS)
    .update(projection, { $unset: { dirty: '' } });
}
