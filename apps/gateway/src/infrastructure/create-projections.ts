import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { EventStore } from '@tollgate/event-store';
import { ProjectionHost, type Projection, type ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { projectionMode } from '../config/projection-mode';
import { ElectedProjections } from './elected-projections';
import type { Election } from './election/election';
import {
  ELECTION_LEASE_TTL_MS,
  electionEngine,
  type ElectedRole,
} from './election/election-engine';
import { FencedReadStore } from './election/fenced-read-store';
import { holderId } from './election/holder-id';
import { LeaseElection } from './election/lease-election';
import type { LeasePort } from './election/lease.port';
import { FollowerProjections } from './follower-projections';
import type { HotCache } from './hot-caches/hot-cache';
import { LockElection } from './lock-election';
import type { ProjectorChild } from './projector-child/projector-child';
import { scheduleReadCheckpoints } from './read-checkpoint-schedule';
import { RecordingProjectionHost } from './recording-projection-host';

export type { ElectedRole } from './election/election-engine';

/**
 * In scale-out, the election for `role`, tried at once: on DATA_DIR/<role>.lock, or on the shared
 * engine's lease (see electionEngine; `leases` is that engine's, null with embedded stores). Null
 * alone.
 */
export function startElection(
  config: AppConfig,
  role: ElectedRole,
  leases: LeasePort | null,
): Election | null {
  if (!config.scaleOut) return null;
  const logger = new Logger('Election');
  const engine = electionEngine(config, role);
  if (engine === 'file-lock' || !leases) return startLockElection(config, role);
  const election = new LeaseElection(leases, role, holderId(), {
    ttlMs: ELECTION_LEASE_TTL_MS,
    onError: (error) => logger.error(`${role} lease: ${error.message}`),
  });
  election.onWon(() =>
    logger.log(`${role} lease won by ${election.holder} (token ${election.token})`),
  );
  election.onLost(() => logger.error(`${role} lease lost by ${election.holder}`));
  election.start();
  return election;
}

/** The election for `role` on DATA_DIR/<role>.lock (one machine), tried at once. */
export function startLockElection(config: AppConfig, role: ElectedRole): Election {
  const logger = new Logger('Election');
  const election = new LockElection(join(config.dataDir, `${role}.lock`), (error) =>
    logger.error(`${role}.lock: ${error.message}`),
  );
  election.start();
  return election;
}

/**
 * The read store the elected projector writes through: fenced by its lease's token when elected
 * on a lease (a stale holder's batches are refused), the store itself under a file lock.
 */
export function projectorReadStore(
  readStore: ReadStore,
  election: Election | null,
  onFenced: () => void,
): { store: ReadStore; raise(): Promise<void> } {
  if (!(election instanceof LeaseElection))
    return { store: readStore, raise: () => Promise.resolve() };
  const store = new FencedReadStore(readStore, election.role, () => election.token, onFenced);
  return { store, raise: () => store.raise() };
}

/**
 * What answers as PROJECTION_HOST (docs/scale-out.md): the projections themselves, a follower of
 * another process's projector head (a scale-out projector, or this gateway's projector child),
 * or the elected switch from one to the other.
 */
export function createProjections(
  eventStore: EventStore,
  readStore: ReadStore,
  config: AppConfig,
  feed: { register(cache: HotCache): void },
  election: Election | null,
  projections: readonly Projection[],
  projector: ProjectorChild | null = null,
): ProjectionHost | FollowerProjections | ElectedProjections {
  const logger = new Logger('Projections');
  const onError = (name: string, error: Error) =>
    logger.error(`${name}: ${error.stack ?? error.message}`);
  const options = { onError, livePacingMs: config.projectionPacingMs };
  const host = (store = readStore) => {
    const created = config.scaleOut
      ? new RecordingProjectionHost(eventStore, store, projections, options)
      : new ProjectionHost(eventStore, store, projections, options);
    // The copy is a read: the store itself, not its fenced wrapper.
    scheduleReadCheckpoints(created, readStore, config, logger);
    return created;
  };
  const follower = () =>
    new FollowerProjections(eventStore, readStore, feed, projections, {
      log: (line) => logger.log(line),
      warn: (line) => logger.warn(line),
      onError,
      ...(projector ? { heads: projector } : {}),
    });
  const mode = projectionMode(config);
  if (mode === 'project') return host();
  if (mode === 'follow' || !election) return follower();
  const elected: ElectedProjections = new ElectedProjections(
    follower,
    election,
    async () => {
      const fenced = projectorReadStore(readStore, election, () =>
        elected.stepDown('a write was refused: another process holds the projector lease'),
      );
      await fenced.raise();
      return host(fenced.store);
    },
    logger,
  );
  return elected;
}
