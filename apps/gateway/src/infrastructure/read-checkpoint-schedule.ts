import { join } from 'node:path';
import {
  listReadCheckpoints,
  SqliteReadStore,
  takeReadCheckpoint,
  type ReadStore,
} from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';

/** DATA_DIR/checkpoints: the read-model checkpoints a rebuild starts from. */
export const READ_CHECKPOINTS_DIR = 'checkpoints';

export interface ReadCheckpointLog {
  log(line: string): void;
  error(line: string): void;
}

/** What the schedule watches: a projection host (its batches and how many events it processed). */
export interface ProcessedCounter {
  onAdvance(listener: () => void): () => void;
  processed(): number;
}

/**
 * Takes a read-model checkpoint right after a committed batch once READ_CHECKPOINT_EVERY events
 * have been processed since the last, or READ_CHECKPOINT_HOURS have passed with events since.
 * One copy at a time, off the projections' way (they keep applying while it runs).
 */
export class ReadCheckpointSchedule {
  private countAtLast = 0;
  /** When the last checkpoint was taken: the newest on disk, else this process's start. */
  private lastAt: number | undefined;
  private taking: Promise<void> | undefined;
  /** Resolves once the time of the newest checkpoint on disk is known (nothing is taken before). */
  readonly ready: Promise<void>;

  constructor(
    private readonly store: SqliteReadStore,
    readonly dir: string,
    private readonly settings: AppConfig['readCheckpoints'],
    private readonly logger: ReadCheckpointLog,
    private readonly now: () => number = Date.now,
  ) {
    const started = now();
    this.ready = listReadCheckpoints(dir)
      .then((found) => found[0] && Date.parse(found[0].manifest.takenAt))
      .catch(() => undefined)
      .then((newest) => void (this.lastAt = newest || started));
  }

  /** Called after each batch with the host's processed count. */
  advanced(processed: number): void {
    if (this.taking || this.lastAt === undefined) return;
    const since = processed - this.countAtLast;
    const byCount = since >= this.settings.everyEvents;
    const byTime =
      since > 0 && this.settings.everyMs > 0 && this.now() - this.lastAt >= this.settings.everyMs;
    if (!byCount && !byTime) return;
    this.countAtLast = processed;
    this.lastAt = this.now();
    this.taking = this.take().finally(() => (this.taking = undefined));
  }

  /** The copy under way, if any (tests, shutdown). */
  settled(): Promise<void> {
    return this.taking ?? Promise.resolve();
  }

  private async take(): Promise<void> {
    const started = this.now();
    try {
      const manifest = await takeReadCheckpoint(this.store, this.dir, {
        now: () => new Date(this.now()),
      });
      if (manifest)
        this.logger.log(
          `Read-model checkpoint at position ${manifest.position} (${manifest.projections.length} projections, ${manifest.bytes} bytes, ${this.now() - started} ms): ${join(this.dir, manifest.file)}`,
        );
    } catch (error) {
      this.logger.error(`Read-model checkpoint failed: ${(error as Error).message}`);
    }
  }
}

/**
 * Checkpoints for this host's read models when they are the embedded SQLite store and
 * READ_CHECKPOINT_EVERY is not 0; MongoDB read stores take none (a rebuild there starts from scratch).
 */
export function scheduleReadCheckpoints(
  host: ProcessedCounter,
  readStore: ReadStore,
  config: Pick<AppConfig, 'dataDir' | 'readCheckpoints'>,
  logger: ReadCheckpointLog,
): ReadCheckpointSchedule | null {
  if (!(readStore instanceof SqliteReadStore) || config.readCheckpoints.everyEvents === 0)
    return null;
  const dir = join(config.dataDir, READ_CHECKPOINTS_DIR);
  const schedule = new ReadCheckpointSchedule(readStore, dir, config.readCheckpoints, logger);
  host.onAdvance(() => schedule.advanced(host.processed()));
  return schedule;
}
