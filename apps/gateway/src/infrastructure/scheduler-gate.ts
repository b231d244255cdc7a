import type { Election } from './election/election';

/**
 * Scheduled work that must not run in several processes at once (the channel test schedule, task
 * polling and timeouts, the notices) starts through this: at once in a single gateway, in
 * scale-out only on the process elected scheduler (DATA_DIR/scheduler.lock, or the scheduler
 * lease across machines), at every win; `stop` runs when a lease is lost.
 */
export class SchedulerGate {
  constructor(private readonly election: Election | null) {}

  whenElected(start: () => void, stop?: () => void): void {
    if (!this.election) return start();
    this.election.onWon(start);
    if (stop) this.election.onLost(stop);
  }

  /**
   * Checked before each run: alone always; elected, only while the role's last confirmation has
   * not run out (a lease renewed late is treated as lost before the engine could give it away).
   */
  mayRun(): boolean {
    return !this.election || this.election.confirmed();
  }

  /** At shutdown: another process may run the jobs now. */
  release(): Promise<void> {
    return this.election?.release() ?? Promise.resolve();
  }
}
