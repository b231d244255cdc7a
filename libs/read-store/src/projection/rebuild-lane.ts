import type { MessagePort } from 'node:worker_threads';
import type { Position } from '@tollgate/event-store/event-store.port';
import { pagesFromPort } from '@tollgate/event-store/sqlite/sqlite-read-ahead';
import type { ReadStore } from '../read-store.port';
import { checkpointCollection, CHECKPOINTS } from './checkpoint';
import type { Projection } from './projection';
import { rebuildProjections, type RebuildResult } from './rebuild';

/**
 * A rebuild's second lane: projections replayed on another thread from the pages the first lane's
 * reader also hands it (`ReadAllPagesOptions.alsoTo`), into a read store of the lane's own, copied
 * into the rebuilt store at the end. One SQLite file takes one writer at a time, hence the own store.
 */
export interface RebuildLane {
  /** Whether the lane takes this projection (one replayed from the start). */
  takes(projection: Projection): boolean;
  /** Starts replaying, up to `head`, the pages that will arrive on the started lane's port. */
  start(projections: readonly Projection[], head: Position): StartedLane;
}

export interface StartedLane {
  readonly projections: readonly Projection[];
  /** Where the reader sends its pages (transferred to the reading thread). */
  readonly port: MessagePort;
  /** Settles once the lane has applied its last page (events applied per projection), failed, or been aborted. */
  readonly finished: Promise<Record<string, number>>;
  /** Copies its read models and their checkpoints into `readStore` in one transaction; removes its own store. */
  mergeInto(readStore: ReadStore): Promise<void>;
  /** Stops it and removes its store; `finished` settles. */
  abort(): Promise<void>;
}

/** The lane's side: replays the pages arriving on `port` into `store`, up to `head`. */
export function replayLane(
  port: MessagePort,
  head: Position,
  store: ReadStore,
  projections: readonly Projection[],
): Promise<RebuildResult> {
  const source = {
    headPosition: () => Promise.resolve(head),
    readAll: () => Promise.reject(new Error('A rebuild lane reads only the pages it is handed')),
    readAllPages: () => pagesFromPort(port),
  };
  return rebuildProjections(source, store, projections);
}

/**
 * Copies the projections' collections and checkpoints from `from` into `to`, in one transaction of
 * `to` (its collections declared and empty: a rebuild reset them). Built for a lane's read models:
 * small (the receipts there are merged per document), read whole.
 */
export async function copyReadModels(
  from: ReadStore,
  to: ReadStore,
  projections: readonly Projection[],
): Promise<void> {
  const specs = projections.flatMap((p) => p.collections);
  await from.declare([checkpointCollection, ...specs]);
  const names = [...new Set(specs.map((c) => c.name))];
  const docs = await Promise.all(names.map((name) => from.collection(name).find()));
  const checkpoints = await from
    .collection(CHECKPOINTS)
    .find({ _id: { $in: projections.map((p) => p.name) } });
  await to.transaction(async (session) => {
    for (const [i, name] of names.entries())
      for (const doc of docs[i]!) await session.collection(name).put(doc);
    for (const checkpoint of checkpoints) await session.collection(CHECKPOINTS).put(checkpoint);
  });
}
