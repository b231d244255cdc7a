import { setTimeout as sleep } from 'node:timers/promises';
import { parsePosition, serializePosition, type Position } from '@tollgate/event-store';
import { CHECKPOINTS, type ReadStore, type ReadStoreSession } from '@tollgate/read-store';

/**
 * The projecting process's `$all` position, kept beside the checkpoints so that scale-out
 * followers can wait on it (read-your-writes). Projection names never start with `$`, so the
 * runners and the rebuild, which drop and write checkpoints by projection name, never touch it.
 */
export const PROJECTOR_HEAD = '$head';

/** At most one head write per this many ms: one per batch at relay rates would be too many. */
const WRITE_SPACING_MS = 10;

interface HeadDoc {
  readonly _id: string;
  readonly position: string;
}

export async function readProjectorHead(session: ReadStoreSession): Promise<Position | null> {
  const doc = await session.collection<HeadDoc>(CHECKPOINTS).get(PROJECTOR_HEAD);
  return doc ? parsePosition(doc.position) : null;
}

/** Removes the recorded head: followers wait for a projector to record its own. */
export async function clearProjectorHead(readStore: ReadStore): Promise<void> {
  // Only the collection is needed here: the runner declares (and reconciles) the checkpoints.
  await readStore.declare([{ name: CHECKPOINTS }], { reconcileIndexes: false });
  await readStore.transaction((session) => session.collection(CHECKPOINTS).delete(PROJECTOR_HEAD));
}

/**
 * Writes the head as the projections advance, coalesced: at most one write in flight, at most one
 * per WRITE_SPACING_MS, always the newest position; each write is its own read-store transaction.
 */
export class ProjectorHeadWriter {
  private latest: Position | null = null;
  private writing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly readStore: ReadStore,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Removes a head an earlier projector left: its read models may be older (a version bump). */
  clear(): Promise<void> {
    return clearProjectorHead(this.readStore);
  }

  record(position: Position | null): void {
    if (!position || this.stopped) return;
    this.latest = position;
    this.writing ??= this.drain().finally(() => {
      this.writing = undefined;
      // A position recorded between the drain's last look and here starts the next drain.
      if (this.latest) this.record(this.latest);
    });
  }

  /** Writes what is pending, then nothing more. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.writing;
  }

  private async drain(): Promise<void> {
    while (this.latest) {
      const position = this.latest;
      this.latest = null;
      try {
        await this.readStore.transaction((session) =>
          session
            .collection<HeadDoc>(CHECKPOINTS)
            .put({ _id: PROJECTOR_HEAD, position: serializePosition(position) }),
        );
      } catch (error) {
        this.onError(error as Error);
      }
      await sleep(WRITE_SPACING_MS, undefined, { ref: false });
    }
  }
}
