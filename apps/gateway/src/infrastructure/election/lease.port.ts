/**
 * A lease on a role (the projector, the scheduler) held by one holder at a time across machines,
 * kept by whichever shared engine the processes use (docs/scale-out.md#elections-across-machines).
 *
 * `token` is a fencing token: strictly increasing per role across holders, so a write stamped with
 * it can be refused once a later holder exists.
 */
export interface LeaseGrant {
  readonly token: number;
}

export interface LeasePort {
  /** Takes the role when it is free or expired (or already ours): a new, higher token; else null. */
  acquire(role: string, holder: string, ttlMs: number): Promise<LeaseGrant | null>;
  /** Extends our lease; false when the role is no longer ours with this token. */
  renew(role: string, holder: string, token: number, ttlMs: number): Promise<boolean>;
  /** Frees the role at once (a shutdown), if it is still ours with this token. */
  release(role: string, holder: string, token: number): Promise<void>;
  /** Who holds the role now (an unexpired lease), for messages; null when free. */
  holderOf(role: string): Promise<string | null>;
}

/** Thrown by a write refused because its lease is no longer the current one. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor(role: string, token: number) {
    super(`The ${role} lease (token ${token}) is held by another process now: write refused`);
  }
}
