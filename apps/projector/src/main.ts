/**
 * The projector: the read models as their own process (docs/scale-out.md), for when the read side
 * needs its own CPU. It serves nothing; it follows the log and writes the read models and the
 * projector head that the gateways (SCALE_OUT=on, PROJECTIONS=off or auto) wait on.
 *
 * It joins DATA_DIR like a scale-out gateway and waits for DATA_DIR/projector.lock, so it never
 * projects beside another projector on that DATA_DIR; gateways left on PROJECTIONS=auto stand by
 * and take over if it dies. Processes on other machines do not see that lock: run one projector.
 */
import { Logger } from '@nestjs/common';
import { loadConfig } from '@tollgate/gateway/config/app-config';
import { startElection } from '@tollgate/gateway/infrastructure/create-projections';
import type { LockElection } from '@tollgate/gateway/infrastructure/lock-election';
import { openStores } from '@tollgate/gateway/infrastructure/open-stores';
import { RecordingProjectionHost } from '@tollgate/gateway/infrastructure/recording-projection-host';
import { serverProjections } from '@tollgate/gateway/projection-registry';

const logger = new Logger('Projector');

function elected(election: LockElection | null): Promise<void> {
  if (!election) return Promise.resolve();
  if (!election.held) logger.log('Waiting for DATA_DIR/projector.lock (another process projects)');
  return new Promise((resolve) => election.onWon(resolve));
}

async function main(): Promise<void> {
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
