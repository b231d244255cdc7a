/**
 * The rebuild's second lane, on its own thread (started by rebuild-lane.ts from the compiled
 * file): replays the pages the reader hands it into the lane's own SQLite file, then reports the
 * events applied per projection.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Position } from '@tollgate/event-store/event-store.port';
import { replayLane, SqliteReadStore } from '@tollgate/read-store';
import { serverProjections } from './projection-registry';

export interface RebuildLaneThreadData {
  /** The lane's own read store file. */
  readonly path: string;
  /** The projections it replays, by name. */
  readonly names: readonly string[];
  /** The log's head at the rebuild's start (its bigints cross as they are). */
  readonly head: Position;
  readonly port: MessagePort;
  /** Opens the channel keys quoted in status reasons, as the server's projections do. */
  readonly sessionSecret: string;
}

/** What the thread posts before it ends: the events applied per projection, or why it failed. */
export type RebuildLaneThreadResult = { applied: Record<string, number> } | { error: string };

async function run({ path, names, head, port, sessionSecret }: RebuildLaneThreadData) {
  const wanted = new Set(names);
  const projections = serverProjections({ sessionSecret }).filter((p) => wanted.has(p.name));
  // Copied into read.sqlite at the end; a crash before then rebuilds the lane's projections again.
  const store = new SqliteReadStore(path, { scratch: true });
  try {
    const result = await replayLane(port, head, store, projections);
    return { applied: result.applied };
  } finally {
    await store.close();
  }
}

void run(workerData as RebuildLaneThreadData).then(
  (result: RebuildLaneThreadResult) => parentPort!.postMessage(result),
  (error: unknown) =>
    parentPort!.postMessage({
      error: error instanceof Error ? error.message : String(error),
    } satisfies RebuildLaneThreadResult),
);
