import type { Position, RecordedEvent } from '@tollgate/event-store';
import type { AppliedListener, ProjectionHost } from '@tollgate/read-store';
import type { FollowerProjections } from './follower-projections';
import type { LockElection } from './lock-election';

type Projections = FollowerProjections | ProjectionHost;

export interface ElectedProjectionsLog {
  log(line: string): void;
  error(line: string): void;
}

/**
 * PROJECTIONS=auto in scale-out on the embedded read store: follows the elected projector until
 * this process wins DATA_DIR/projector.lock, then starts its own ProjectionHost and answers from
 * it. Listeners registered here keep working across the switch.
 */
export class ElectedProjections {
  /** For the metrics, which keep this object: whichever side answers now. */
  readonly runner = { progress: () => this.active.runner.progress() };

  private active: Projections;
  private starting: ProjectionHost | undefined;
  private host: ProjectionHost | undefined;
  private switching: Promise<void> | undefined;
  private readonly advanceListeners = new Set<() => void>();
  private readonly appliedListeners = new Set<AppliedListener>();
  private projecting!: () => void;
  private readonly projected = new Promise<void>((resolve) => (this.projecting = resolve));
  private stopped = false;

  constructor(
    private readonly follower: FollowerProjections,
    private readonly election: LockElection,
    private readonly createHost: () => ProjectionHost,
    private readonly logger: ElectedProjectionsLog,
  ) {
    this.active = follower;
    follower.onAdvance(() => {
      if (this.active === follower) this.advanced();
    });
    follower.onApplied((name, events) => this.applied(name, events));
  }

  /** Resolves once the side answering has caught up with the log (see both sides' `start`). */
  async start(): Promise<void> {
    let booted = false;
    this.election.onWon(() => {
      this.switching ??= this.takeOver();
      if (booted)
        void this.switching.catch((error: Error) =>
          this.logger.error(
            `Projections failed to start after the election, projector.lock released for another process (this one stays a follower without live updates): ${error.stack ?? error.message}`,
          ),
        );
    });
    booted = true;
    // Elected at once (the election tries when it is created): a failing start fails the boot.
    if (this.switching) return this.switching;
    await Promise.race([this.follower.start(), this.projected]);
  }

  position(): Position | null {
    return this.active.position();
  }

  hasReached(position: Position): boolean {
    return this.active.hasReached(position);
  }

  onAdvance(listener: () => void): () => void {
    this.advanceListeners.add(listener);
    return () => this.advanceListeners.delete(listener);
  }

  onApplied(listener: AppliedListener): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  waitFor(position: Position, timeoutMs = 5000): Promise<boolean> {
    return this.active.waitFor(position, timeoutMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting?.stop();
    await this.switching?.catch(() => undefined);
    await this.follower.stop();
    await this.host?.stop();
  }

  private async takeOver(): Promise<void> {
    if (this.stopped) return;
    this.logger.log(
      'Elected projector (DATA_DIR/projector.lock): this process now writes the read models',
    );
    // The follower hands over what the last head covers; the host applies (and reports) the rest.
    await this.follower.stop();
    const host = this.createHost();
    host.onAdvance(() => this.advanced());
    host.onApplied((name, events) => this.applied(name, events));
    this.starting = host;
    try {
      await host.start();
    } catch (error) {
      this.election.release();
      if (this.stopped) return;
      throw error;
    } finally {
      this.starting = undefined;
    }
    this.host = host;
    this.active = host;
    this.projecting();
  }

  private advanced(): void {
    for (const listener of [...this.advanceListeners]) listener();
  }

  private applied(name: string, events: readonly RecordedEvent[]): void {
    for (const listener of [...this.appliedListeners]) listener(name, events);
  }
}
