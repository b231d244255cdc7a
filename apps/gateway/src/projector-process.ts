/**
 * The projector process, wired here at the composition root beside the projection registry: the
 * read models written by a process of their own (`apps/projector`, docs/scale-out.md). It joins
 * DATA_DIR like a scale-out gateway and projects while it holds the projector election
 * (DATA_DIR/projector.lock, or the projector lease when the read store is shared across machines).
 */
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config';
import { createAppLog, NestLogOverPino } from './observability/app-log';
import { SqliteEventStore, type EventStore, type Position } from '@tollgate/event-store';
import {
  projectorReadStore,
  startElection,
  startLockElection,
} from './infrastructure/create-projections';
import {
  headMessage,
  isAppendedMessage,
  PROJECTOR_PARENT_ENV,
  READY_MESSAGE,
} from './infrastructure/projector-child/projector-child-protocol';
import type { Election } from './infrastructure/election/election';
import { LeaseLostError } from './infrastructure/election/lease.port';
import { openLeases } from './infrastructure/election/open-leases';
import { openStores } from './infrastructure/open-stores';
import { scheduleReadCheckpoints } from './infrastructure/read-checkpoint-schedule';
import { RecordingProjectionHost } from './infrastructure/recording-projection-host';
import { serverProjections } from './projection-registry';

const logger = new Logger('Projector');

function elected(election: Election | null): Promise<void> {
  if (!election || election.held) return Promise.resolve();
  logger.log('Waiting for the projector election (another process projects)');
  return new Promise((resolve) => election.onWon(resolve));
}

/** Resolves when this tenure ends: the lease lost, or a write refused by its fence. */
function tenureEnd(election: Election | null): { ended: Promise<string>; end(why: string): void } {
  let end!: (why: string) => void;
  const ended = new Promise<string>((resolve) => (end = resolve));
  const off = election?.onLost(() => end('the projector lease was lost'));
  void ended.then(() => off?.());
  return { ended, end };
}

const leaseLost = (error: unknown): boolean =>
  error instanceof LeaseLostError || (error as Error).cause instanceof LeaseLostError;

/** A projector child and the gateway that started it, over their IPC channel. */
function listenToGateway(events: EventStore, stop: (why: string) => Promise<void>): void {
  // The gateway is gone (stopped, or killed): so is the child's reason to be.
  process.once('disconnect', () => void stop('the gateway stopped'));
  // Told of each commit of the gateway's: the log is read now, not at the watch's next tick.
  if (events instanceof SqliteEventStore)
    process.on(
      'message',
      (message) => isAppendedMessage(message) && events.lookForForeignAppends(),
    );
}

/** Runs the projector until SIGTERM or SIGINT; throws when it cannot start. */
export async function runProjector(): Promise<void> {
  const config = loadConfig();
  Logger.overrideLogger(new NestLogOverPino(createAppLog(config)));
  // Started by a gateway (its projector child): that gateway holds DATA_DIR for both.
  const child = Boolean(process.env[PROJECTOR_PARENT_ENV]) && process.send !== undefined;
  if (!config.scaleOut && !child)
    throw new Error(
      'The projector runs beside scale-out gateways: set SCALE_OUT=on (docs/scale-out.md)',
    );
  const stores = await openStores(config, {
    onWriterLost: (error) => {
      logger.error(`${error.message}: stopping the projector`);
      process.exitCode = 1;
    },
    lockMode: child ? 'held-by-parent' : 'shared',
    serving: true,
    // The gateways' writer threads signal each commit: the log is read then, not at the next tick.
    commitSignal: 'watch',
  });
  const leases = child ? null : await openLeases(config, stores.eventStore);
  // A child still takes projector.lock: a restarted gateway's new child waits for the old one.
  const election = child
    ? startLockElection(config, 'projector')
    : startElection(config, 'projector', leases?.port ?? null);
  const onHead = child ? (position: Position) => process.send?.(headMessage(position)) : undefined;
  const projecting: { host?: RecordingProjectionHost } = {}; // set while elected
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: stopping`);
    await projecting.host?.stop();
    await election?.release();
    await leases?.close();
    await stores.close();
    process.exit(process.exitCode ?? 0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  if (child) listenToGateway(stores.eventStore, stop);

  const projections = serverProjections(config);
  // One tenure per win: a lost lease stops the host, and the process waits for its next win.
  for (;;) {
    await elected(election);
    if (stopping) return;
    const tenure = tenureEnd(election);
    const started = Date.now();
    const fenced = projectorReadStore(stores.readStore, election, () =>
      tenure.end('a write was refused: another process holds the projector lease'),
    );
    const host = new RecordingProjectionHost(stores.eventStore, fenced.store, projections, {
      onError: (name, error) => logger.error(`${name}: ${error.stack ?? error.message}`),
      livePacingMs: config.projectionPacingMs,
      ...(onHead ? { onHead } : {}),
    });
    scheduleReadCheckpoints(host, stores.readStore, config, logger);
    projecting.host = host;
    try {
      await fenced.raise();
      await host.start();
      if (child) process.send?.(READY_MESSAGE);
      logger.log(
        `Projecting ${projections.length} read models (caught up in ${Date.now() - started} ms; data: ${config.dataDir})`,
      );
    } catch (error) {
      if (!leaseLost(error)) throw error;
      tenure.end('the projector lease was taken while starting');
    }
    const why = await tenure.ended;
    if (stopping) return;
    logger.error(`Stopping the projections (${why}); waiting to be elected again`);
    await host.stop();
    projecting.host = undefined;
  }
}
