import type { Position, RecordedEvent } from '@tollgate/event-store';
import type { AppliedListener, ProjectionHost } from '@tollgate/read-store';
import type { Election } from './election/election';
import { LeaseLostError } from './election/lease.port';
import type { FollowerProjections } from './follower-projections';

type Projections = FollowerProjections | ProjectionHost;

export interface ElectedProjectionsLog {
  log(line: string): void;
  error(line: string): void;
}

/**
 * PROJECTIONS=auto in scale-out: follows the elected projector until this process wins the
 * projector election (DATA_DIR/projector.lock, or the projector lease across machines), then starts
 * its own ProjectionHost and answers from it. A lost lease (or a write refused by its fence) stops
 * the host and makes this process a follower again, until it wins again. Listeners registered here
 * keep working across the switches.
 */
export class ElectedProjections {
  /** For the metrics, which keep this object: whichever side answers now. */
  readonly runner = { progress: () => this.active.runner.progress() };

  private active: Projections;
  private follower: FollowerProjections;
  private starting: ProjectionHost | undefined;
  private host: ProjectionHost | undefined;
  private switching: Promise<void> | undefined;
  /** Take-overs and step-downs, one after the other. */
  private transitions: Promise<void> = Promise.resolve();
  private readonly advanceListeners = new Set<() => void>();
  private readonly appliedListeners = new Set<AppliedListener>();
  private projecting!: () => void;
  private readonly projected = new Promise<void>((resolve) => (this.projecting = resolve));
  private stopped = false;

  constructor(
    private readonly createFollower: () => FollowerProjections,
    private readonly election: Election,
    /** Resolves once the host may start (a lease's fence is raised first). */
    private readonly createHost: () => ProjectionHost | Promise<ProjectionHost>,
    private readonly logger: ElectedProjectionsLog,
  ) {
    this.follower = this.follow();
    this.active = this.follower;
  }

  /** Resolves once the side answering has caught up with the log (see both sides' `start`). */
  async start(): Promise<void> {
    let booted = false;
    this.election.onLost(() => this.stepDown('the projector lease was lost'));
    this.election.onWon(() => {
      this.switching ??= this.enqueue(() => this.takeOver());
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
    await this.transitions;
    await this.follower.stop();
    await this.host?.stop();
  }

  /**
   * A write of this process's projector was refused by its lease's fence (another process holds
   * the role now): stop projecting and follow; the election tries again once its lease is lost.
   */
  stepDown(reason: string): void {
    if (this.stopped) return;
    void this.enqueue(async () => {
      const host = this.host;
      if (!host || this.stopped) return;
      this.logger.error(`Stopping the projections (${reason}): this process follows again`);
      this.host = undefined;
      this.switching = undefined;
      this.follower = this.follow();
      this.active = this.follower;
      await host.stop();
      await this.follower.start();
    }).catch((error: Error) =>
      this.logger.error(`Following again: ${error.stack ?? error.message}`),
    );
  }

  private follow(): FollowerProjections {
    const follower = this.createFollower();
    follower.onAdvance(() => {
      if (this.active === follower) this.advanced();
    });
    follower.onApplied((name, events) => {
      if (this.active === follower) this.applied(name, events);
    });
    return follower;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.transitions.then(step);
    this.transitions = next.catch(() => undefined);
    return next;
  }

  private async takeOver(): Promise<void> {
    if (this.stopped || this.host) return;
    this.logger.log('Elected projector: this process now writes the read models');
    // The follower hands over what the last head covers; the host applies (and reports) the rest.
    await this.follower.stop();
    let host: ProjectionHost | undefined;
    try {
      host = await this.createHost();
      host.onAdvance(() => this.advanced());
      host.onApplied((name, events) => this.applied(name, events));
      this.starting = host;
      await host.start();
    } catch (error) {
      if (isLeaseLost(error)) {
        await host?.stop();
        // Taken by another process meanwhile: follow, and let the election try again.
        this.switching = undefined;
        this.follower = this.follow();
        this.active = this.follower;
        void this.follower.start().catch(() => undefined);
        return;
      }
      void this.election.release();
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

function isLeaseLost(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof LeaseLostError) return true;
  return false;
}
