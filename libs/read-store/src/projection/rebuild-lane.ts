import type { MessagePort } from 'node:worker_threads';
import type { Position } from '@tollgate/event-store/event-store.port';
import { pagesFromPort } from '@tollgate/event-store/sqlite/sqlite-read-ahead';
import type { ReadStore } from '../read-store.port';
import type { RowCopy } from '../sqlite/copy-rows';
import { CHECKPOINTS } from './checkpoint';
import type { Projection } from './projection';
import { rebuildProjections, type RebuildResult } from './rebuild';

/**
 * A rebuild's second lane: projections replayed on another thread from the pages the first lane's
 * reader also hands it (`ReadAllPagesOptions.alsoTo`), into a read store of the lane's own, copied
 * into the rebuilt store at the end (`laneRows`). One SQLite file takes one writer at a time, hence
 * the own store.
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

/**
 * The lane's side: replays the pages arriving on `port` into `store`, up to `head`. Its store is
 * copied from and removed: the indexes deferred there are never built.
 */
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
  return rebuildProjections(source, store, projections, { leaveIndexesDeferred: true });
}

/** What a lane's store hands over: its projections' collections whole, and their checkpoints. */
export function laneRows(projections: readonly Projection[]): RowCopy[] {
  const collections = new Set(projections.flatMap((p) => p.collections.map((c) => c.name)));
  return [
    ...[...collections].map((collection) => ({ collection })),
    { collection: CHECKPOINTS, ids: projections.map((p) => p.name) },
  ];
}
