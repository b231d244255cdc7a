import type { LockElection } from './lock-election';

/**
 * Scheduled work that must not run in several processes at once (the channel test schedule, task
 * polling and timeouts) starts through this: at once in a single gateway, in scale-out only on the
 * process elected on DATA_DIR/scheduler.lock, when it wins.
 */
export class SchedulerGate {
  constructor(private readonly election: LockElection | null) {}

  whenElected(start: () => void): void {
    if (this.election) this.election.onWon(start);
    else start();
  }

  /** At shutdown: another process may run the jobs now. */
  release(): void {
    this.election?.release();
  }
}
