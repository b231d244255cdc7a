import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { EventStore } from '@tollgate/event-store';
import { ProjectionHost, type Projection, type ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { projectionMode } from '../config/projection-mode';
import { ElectedProjections } from './elected-projections';
import { FollowerProjections } from './follower-projections';
import type { HotCache } from './hot-caches/hot-cache';
import { LockElection } from './lock-election';
import { RecordingProjectionHost } from './recording-projection-host';

/** The scale-out roles, each elected on its own lock file in DATA_DIR (docs/scale-out.md). */
export type ElectedRole = 'projector' | 'scheduler';

/** In scale-out, the election for `role` on DATA_DIR/<role>.lock, tried at once; null alone. */
export function startElection(config: AppConfig, role: ElectedRole): LockElection | null {
  if (!config.scaleOut) return null;
  const logger = new Logger('Election');
  const election = new LockElection(join(config.dataDir, `${role}.lock`), (error) =>
    logger.error(`${role}.lock: ${error.message}`),
  );
  election.start();
  return election;
}

/**
 * What answers as PROJECTION_HOST (docs/scale-out.md): the projections themselves, a follower of
 * another process's projector head, or the elected switch from one to the other.
 */
export function createProjections(
  eventStore: EventStore,
  readStore: ReadStore,
  config: AppConfig,
  feed: { register(cache: HotCache): void },
  election: LockElection | null,
  projections: readonly Projection[],
): ProjectionHost | FollowerProjections | ElectedProjections {
  const logger = new Logger('Projections');
  const onError = (name: string, error: Error) =>
    logger.error(`${name}: ${error.stack ?? error.message}`);
  const options = { onError, livePacingMs: config.projectionPacingMs };
  const host = () =>
    config.scaleOut
      ? new RecordingProjectionHost(eventStore, readStore, projections, options)
      : new ProjectionHost(eventStore, readStore, projections, options);
  const follower = () =>
    new FollowerProjections(eventStore, readStore, feed, projections, {
      log: (line) => logger.log(line),
      warn: (line) => logger.warn(line),
      onError,
    });
  const mode = projectionMode(config);
  if (mode === 'project') return host();
  if (mode === 'follow' || !election) return follower();
  return new ElectedProjections(follower(), election, host, logger);
}
