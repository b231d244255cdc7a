/**
 * The projector process, wired here at the composition root beside the projection registry: the
 * read models written by a process of their own (`apps/projector`, docs/scale-out.md). It joins
 * DATA_DIR like a scale-out gateway and projects once it holds DATA_DIR/projector.lock.
 */
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config';
import { startElection } from './infrastructure/create-projections';
import type { LockElection } from './infrastructure/lock-election';
import { openStores } from './infrastructure/open-stores';
import { RecordingProjectionHost } from './infrastructure/recording-projection-host';
import { serverProjections } from './projection-registry';

const logger = new Logger('Projector');

function elected(election: LockElection | null): Promise<void> {
  if (!election) return Promise.resolve();
  if (!election.held) logger.log('Waiting for DATA_DIR/projector.lock (another process projects)');
  return new Promise((resolve) => election.onWon(resolve));
}

/** Runs the projector until SIGTERM or SIGINT; throws when it cannot start. */
export async function runProjector(): Promise<void> {
  const config = loadConfig();
  if (!config.scaleOut)
    throw new Error(
      'The projector runs beside scale-out gateways: set SCALE_OUT=on (docs/scale-out.md)',
    );
  const stores = await openStores(
    config,
    (error) => {
      logger.error(`${error.message}: stopping the projector`);
      process.exitCode = 1;
    },
    'shared',
  );
  const election = startElection(config, 'projector');
  const projecting: { host?: RecordingProjectionHost } = {}; // set once elected
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: stopping`);
    await projecting.host?.stop();
    election?.release();
    await stores.close();
    process.exit(process.exitCode ?? 0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await elected(election);
  if (stopping) return;
  const started = Date.now();
  const projections = serverProjections(config);
  const host = new RecordingProjectionHost(stores.eventStore, stores.readStore, projections, {
    onError: (name, error) => logger.error(`${name}: ${error.stack ?? error.message}`),
    livePacingMs: config.projectionPacingMs,
  });
  projecting.host = host;
  await host.start();
  logger.log(
    `Projecting ${projections.length} read models (caught up in ${Date.now() - started} ms; data: ${config.dataDir})`,
  );
}
