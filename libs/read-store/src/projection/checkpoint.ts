import type { Position } from '@tollgate/event-store/event-store.port';
import { parsePosition, serializePosition } from '@tollgate/event-store/event-store.port';
import type { CollectionSpec, ReadStoreSession } from '../read-store.port';

export const CHECKPOINTS = 'projection_checkpoints';

export const checkpointCollection: CollectionSpec = { name: CHECKPOINTS };

export interface CheckpointDoc {
  readonly _id: string;
  /** Absent on a document holding only a `dirty` mark (a projection's first batch). */
  readonly position?: string;
  readonly version?: number;
  /**
   * Set (to the batch's last position) before a batch is applied on a store without atomic
   * transactions, cleared by the checkpoint write that ends it: still set means a batch may have
   * landed in part (see standalone-guard.ts).
   */
  readonly dirty?: string;
  [key: string]: unknown;
}

export interface Checkpoint {
  readonly position: Position;
  readonly version: number;
  /** A batch began and never ended: the read model may hold part of it. */
  readonly dirty: boolean;
}

export async function readCheckpoint(
  session: ReadStoreSession,
  projection: string,
): Promise<Checkpoint | null> {
  const doc = await session.collection<CheckpointDoc>(CHECKPOINTS).get(projection);
  // A mark alone: the first batch never ended, which a missing checkpoint already rebuilds.
  if (!doc || doc.position === undefined || doc.version === undefined) return null;
  return {
    position: parsePosition(doc.position),
    version: doc.version,
    dirty: doc.dirty !== undefined,
  };
}

export async function writeCheckpoint(
  session: ReadStoreSession,
  projection: string,
  position: Position,
  version: number,
): Promise<void> {
  // A whole-document put: it also clears the `dirty` mark of the batch it ends.
  await session.collection<CheckpointDoc>(CHECKPOINTS).put({
    _id: projection,
    position: serializePosition(position),
    version,
  });
}
