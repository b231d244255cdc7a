import type { EventStore, Position } from '@tollgate/event-store/event-store.port';
import type { ReadStore } from '../read-store.port';
import type { Projection } from './projection';
import { ProjectionRunner, type AppliedListener } from './projection-runner';

export interface ProjectionHostOptions {
  readonly maxBatchSize?: number;
  readonly checkpointEvery?: number;
  readonly retryDelayMs?: number;
  /** See ProjectionRunnerOptions.livePacingMs. */
  readonly livePacingMs?: number;
  /** Errors the runner retries (after start-up; transient store errors during it) and listener errors. Default: console.error. */
  readonly onError?: (projection: string, error: Error) => void;
}

/**
 * All projections of a process over one `$all` subscription (one runner): start them together and
 * wait (bounded) for read-your-writes.
 */
export class ProjectionHost {
  readonly runner: ProjectionRunner;
  private readonly appliedListeners = new Set<AppliedListener>();

  constructor(
    eventStore: EventStore,
    readStore: ReadStore,
    projections: readonly Projection[],
    options: ProjectionHostOptions = {},
  ) {
    checkOwnership(projections);
    const onApplied: AppliedListener = (name, events) => {
      for (const listener of [...this.appliedListeners]) {
        try {
          listener(name, events);
        } catch (error) {
          if (options.onError) options.onError(name, error as Error);
          else console.error(`onApplied listener for ${name}:`, error);
        }
      }
    };
    this.runner = new ProjectionRunner(eventStore, readStore, projections, {
      ...options,
      onApplied,
    });
  }

  /** Resolves once every projection has caught up with the log; on failure stops them and rejects. */
  async start(): Promise<void> {
    try {
      await this.runner.start();
      await this.runner.caughtUp;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Last `$all` position every projection has processed; null before the first event. */
  position(): Position | null {
    return this.runner.position();
  }

  hasReached(position: Position): boolean {
    return this.runner.hasReached(position);
  }

  /** Events processed since start (see ProjectionRunner.processed). */
  processed(): number {
    return this.runner.processed();
  }

  /** Called after every advance of `position()`; returns the unsubscribe function. */
  onAdvance(listener: () => void): () => void {
    return this.runner.onAdvance(listener);
  }

  /** True once every projection has processed `position`; false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs = 5000): Promise<boolean> {
    if (this.hasReached(position)) return Promise.resolve(true);
    this.runner.hurry();
    return new Promise<boolean>((resolve) => {
      const finish = (result: boolean) => {
        clearTimeout(timer);
        unsubscribe();
        resolve(result);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      const unsubscribe = this.onAdvance(() => this.hasReached(position) && finish(true));
    });
  }

  /** Called after each committed batch with the projection's name and the events it applied. */
  onApplied(listener: AppliedListener): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  async stop(): Promise<void> {
    await this.runner.stop();
  }
}

function checkOwnership(projections: readonly Projection[]): void {
  const owners = new Map<string, string>();
  for (const projection of projections) {
    if (owners.has(`projection:${projection.name}`))
      throw new Error(`Duplicate projection ${projection.name}`);
    owners.set(`projection:${projection.name}`, projection.name);
    for (const { name } of projection.collections) {
      // A version bump drops the projection's collections, which must not wipe another's data.
      const owner = owners.get(name);
      if (owner)
        throw new Error(`Collection ${name} is declared by both ${owner} and ${projection.name}`);
      owners.set(name, projection.name);
    }
  }
}
