import type { ReadStore } from '@tollgate/read-store';
import { ELECTION_LEASE_TTL_MS } from './election-engine';
import { FencedReadStore } from './fenced-read-store';
import { holderId } from './holder-id';
import { LeaseElection } from './lease-election';
import type { LeasePort } from './lease.port';

/** The projections:rebuild refusal when a live projector holds the lease. */
export class ProjectorLeaseHeld extends Error {
  override readonly name = 'ProjectorLeaseHeld';
  constructor(holder: string | null) {
    super(
      `The projector lease is held by ${holder ?? 'another process'}: stop the projectors ` +
        `(apps/projector, and gateways with PROJECTIONS=auto or on) or wait ${ELECTION_LEASE_TTL_MS / 1000} s ` +
        `after the last one stopped, then run projections:rebuild again (docs/scale-out.md)`,
    );
  }
}

/**
 * projections:rebuild on a shared read store: it writes the read models, so it takes the
 * projector lease like a projector, keeps it renewed while it runs, and writes through the fence
 * (a projector paused across the take cannot write in between; a rebuild that loses the lease
 * stops at its next write). Standby gateways take the role over once it is released.
 */
export async function takeProjectorLease(
  leases: LeasePort,
  readStore: ReadStore,
  onError: (error: Error) => void,
): Promise<{ store: ReadStore; release(): Promise<void> }> {
  const election = new LeaseElection(leases, 'projector', holderId(), {
    ttlMs: ELECTION_LEASE_TTL_MS,
    onError,
  });
  if (!(await election.tryOnce())) throw new ProjectorLeaseHeld(await leases.holderOf('projector'));
  const store = new FencedReadStore(
    readStore,
    'projector',
    () => election.token,
    () => undefined,
  );
  try {
    await store.raise();
  } catch (error) {
    await election.release();
    throw error;
  }
  return { store, release: () => election.release() };
}
