import type { Position } from '@tollgate/event-store/event-store.port';
import { parsePosition, serializePosition } from '@tollgate/event-store/event-store.port';
import type { CollectionSpec, ReadStoreSession } from '../read-store.port';

export const CHECKPOINTS = 'projection_checkpoints';

export const checkpointCollection: CollectionSpec = { name: CHECKPOINTS };

export interface CheckpointDoc {
  readonly _id: string;
  readonly position: string;
  readonly version: number;
  [key: string]: unknown;
}

export interface Checkpoint {
  readonly position: Position;
  readonly version: number;
}

export async function readCheckpoint(
  session: ReadStoreSession,
  projection: string,
): Promise<Checkpoint | null> {
  const doc = await session.collection<CheckpointDoc>(CHECKPOINTS).get(projection);
  return doc ? { position: parsePosition(doc.position), version: doc.version } : null;
}

export async function writeCheckpoint(
  session: ReadStoreSession,
  projection: string,
  position: Position,
  version: number,
): Promise<void> {
  await session.collection<CheckpointDoc>(CHECKPOINTS).put({
    _id: projection,
    position: serializePosition(position),
    version,
  });
}
