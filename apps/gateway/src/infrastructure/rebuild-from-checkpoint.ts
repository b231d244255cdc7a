import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  comparePositions,
  parsePosition,
  serializePosition,
  type Position,
} from '@tollgate/event-store';
import {
  READ_STORE_FILE,
  restoreNewestReadCheckpoint,
  resumePoints,
  type Projection,
  type ReadCheckpointManifest,
} from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { READ_CHECKPOINTS_DIR } from './read-checkpoint-schedule';

/** Where `projections:rebuild` starts: a restored checkpoint, or the start of the log (and why). */
export type RebuildStart =
  | { readonly checkpoint: ReadCheckpointManifest }
  | { readonly checkpoint: null; readonly why: string };

/**
 * With DATA_DIR held and before the read store opens: copies the newest checkpoint whose file
 * matches its manifest over the read-model database, unless `--from-scratch` or the read store is
 * MongoDB (no checkpoints there). Damaged checkpoints are reported through `log` and passed over.
 */
export async function restoreForRebuild(
  config: Pick<AppConfig, 'dataDir' | 'readStoreUrl'>,
  fromScratch: boolean,
  log: (line: string) => void,
  /** The event log's head now: a checkpoint beyond it was taken from another (or a longer) log. */
  head: Position | null,
): Promise<RebuildStart> {
  if (fromScratch) return { checkpoint: null, why: '--from-scratch' };
  if (config.readStoreUrl)
    return { checkpoint: null, why: 'a MongoDB read store has no read-model checkpoints' };
  const dir = join(config.dataDir, READ_CHECKPOINTS_DIR);
  const checkpoint = await restoreNewestReadCheckpoint(
    dir,
    join(config.dataDir, READ_STORE_FILE),
    (name, why) => log(`Skipping checkpoint ${name}: ${why}`),
    (manifest) => aheadOfLog(manifest, head),
  );
  return checkpoint ? { checkpoint } : { checkpoint: null, why: `no usable checkpoint in ${dir}` };
}

function aheadOfLog(manifest: ReadCheckpointManifest, head: Position | null): string | null {
  const ahead = manifest.projections.some(
    (p) => head === null || comparePositions(parsePosition(p.position), head) > 0,
  );
  return ahead
    ? `it is ahead of the event log (head ${head ? serializePosition(head) : 'empty'}): taken from another log`
    : null;
}

export interface RebuildPlan {
  /** The projections that keep their restored read models, and up to where. */
  readonly resume: ReadonlyMap<string, Position>;
  /** What the CLI prints before replaying. */
  readonly line: string;
}

/**
 * The resume points for the restored checkpoint: projections with the manifest's name and version;
 * a new one, or one whose version changed, is rebuilt from the start. `countable`: positions are
 * event numbers (the SQLite event store), so the events to replay are their difference.
 */
export function planRebuild(
  start: RebuildStart,
  projections: readonly Projection[],
  head: Position | null,
  countable: boolean,
): RebuildPlan {
  if (start.checkpoint === null)
    return { resume: new Map(), line: `Rebuilding from scratch (${start.why})` };
  const { checkpoint } = start;
  const resume = resumePoints(checkpoint, projections);
  const from = checkpoint.position;
  const pending = head ? Number(head.commit - parsePosition(from).commit) : 0;
  const count = countable ? `${Math.max(0, pending)} events to replay` : 'the events after it';
  const fresh = projections.filter((p) => !resume.has(p.name)).map((p) => p.name);
  const restart = fresh.length
    ? `; from the start, new or of another version: ${fresh.join(', ')}`
    : '';
  return {
    resume,
    line: `Rebuilding from checkpoint at position ${from} taken ${checkpoint.takenAt} (${count})${restart}`,
  };
}

/**
 * A gateway starting alone on DATA_DIR without its read-model database (lost, or deleted by hand)
 * starts from the newest checkpoint instead of the beginning of the log: the runners then catch up
 * from each projection's position in it (and rebuild one whose version changed, as always). Runs
 * with DATA_DIR held exclusively, before the read store opens; a present database is left alone.
 * `projections:rebuild --from-scratch` is the way to rebuild without a checkpoint.
 */
export async function restoreLostReadStore(
  config: Pick<AppConfig, 'dataDir' | 'readStoreUrl'>,
  head: Position | null,
  log: (line: string) => void,
): Promise<ReadCheckpointManifest | null> {
  if (config.readStoreUrl || existsSync(join(config.dataDir, READ_STORE_FILE))) return null;
  const start = await restoreForRebuild(config, false, log, head);
  if (start.checkpoint)
    log(
      `No read-model database: starting from the checkpoint at position ${start.checkpoint.position}`,
    );
  return start.checkpoint;
}
