import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Position } from '@tollgate/event-store';
import {
  laneRows,
  SqliteReadStore,
  type Projection,
  type RebuildLane,
  type StartedLane,
} from '@tollgate/read-store';
import { logsProjection } from './logs/logs.projection';
import type { RebuildLaneThreadData, RebuildLaneThreadResult } from './rebuild-lane-thread';

/** The lane's read store, beside the rebuilt one; removed after the copy (or at the next rebuild). */
export const LANE_STORE_FILE = 'read.rebuild-lane.sqlite';

/**
 * The offline rebuild's second lane on a thread of this process, for the embedded read store:
 * every projection but the request logs, which alone take about as long as all the others together
 * (the row per receipt, its indexes). Its rows are copied in SQL at the end, table to table.
 */
export function threadRebuildLane(dataDir: string, sessionSecret: string): RebuildLane {
  const path = join(dataDir, LANE_STORE_FILE);
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
  };
  return {
    takes: (projection) => projection.name !== logsProjection.name,
    start(projections: readonly Projection[], head: Position): StartedLane {
      remove(); // a killed rebuild's leftover
      const { port1, port2 } = new MessageChannel();
      const data: RebuildLaneThreadData = {
        path,
        names: projections.map((p) => p.name),
        head,
        port: port2,
        sessionSecret,
      };
      const worker = new Worker(join(__dirname, 'rebuild-lane-thread.js'), {
        workerData: data,
        transferList: [port2],
      });
      const finished = new Promise<Record<string, number>>((resolve, reject) => {
        let result: RebuildLaneThreadResult | undefined;
        worker.once('message', (message: RebuildLaneThreadResult) => (result = message));
        worker.once('error', reject);
        // Resolved at the exit: the thread has closed its store by then, ready to be copied from.
        worker.once('exit', () => {
          if (result && 'applied' in result) resolve(result.applied);
          else reject(new Error(result?.error ?? 'The rebuild lane stopped before its end'));
        });
      });
      // Awaited by the rebuild once its own replay ends; a failure before then is not unhandled.
      finished.catch(() => undefined);
      return {
        projections,
        port: port1,
        finished,
        async mergeInto(readStore) {
          if (!(readStore instanceof SqliteReadStore))
            throw new Error('A rebuild lane copies into the embedded read store only');
          await readStore.copyRowsFrom(path, laneRows(projections));
          remove();
        },
        async abort() {
          await worker.terminate();
          await finished.catch(() => undefined);
          remove();
        },
      };
    },
  };
}
