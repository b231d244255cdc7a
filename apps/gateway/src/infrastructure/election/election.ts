/**
 * What the roles' users (the projections, the scheduled jobs) see of an election, whether it is a
 * file lock in DATA_DIR (one machine) or a lease on a shared engine (several machines).
 */
export interface Election {
  /** Whether this process holds the role now. */
  readonly held: boolean;
  /** The fencing token of the current tenure; null for a file lock (never lost while alive). */
  readonly token: number | null;
  /** Tries now, then again until won (and, for a lease, again after a loss). */
  start(): void;
  /** `listener` runs at every win: now if the role is held already. */
  onWon(listener: () => void): void;
  /** `listener` runs when the role is lost without `release` (a failed or late renewal). */
  onLost(listener: () => void): () => void;
  /** Held with a confirmation that has not run out: a job may start now. */
  confirmed(): boolean;
  /** Gives the role up and stops trying (shutdown, or a projector that failed to start). */
  release(): Promise<void>;
}
