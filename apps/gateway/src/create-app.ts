import 'reflect-metadata';
import fastifyCookie from '@fastify/cookie';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { serveConsole } from './console/serve-console';
import { installHttpEdge, RELAY_BODY_LIMIT } from './http-edge/install-http-edge';
import { LAZY_SCHEMA_COMPILERS } from './http-edge/schema-compilers';
import { gatewayLockMode, openStores } from './infrastructure/open-stores';
import { restoreLostReadStore } from './infrastructure/rebuild-from-checkpoint';
import {
  launchProjectorChild,
  type ProjectorChild,
  usesProjectorChild,
} from './infrastructure/projector-child/projector-child';
import type { DestinationStream } from 'pino';
import { createAppLog, NestLogOverPino } from './observability/app-log';
import { RequestTracker } from './observability/request-tracker';
import { relayFront } from './relay/relay-front';
import { registerServerMessages } from './server-messages';
import { validationPipe } from './shared/validation.pipe';

/**
 * Builds the whole gateway (used by main and by the e2e tests); call `listen` on the result.
 * `logDestination`: where the JSON lines go instead of stdout (tests that read the log).
 */
export async function createApp(
  config: AppConfig,
  logDestination?: DestinationStream,
  /** main.js's projector child (PROJECTOR=process): started once DATA_DIR is held. */
  projector: ProjectorChild | null = null,
): Promise<NestFastifyApplication> {
  registerServerMessages();
  const log = createAppLog(config, logDestination);
  const tracker = new RequestTracker();
  const front = relayFront({ trustProxy: config.trustProxy, tracker });
  // Before any route exists: every relay route's handler is wrapped as it is registered.
  tracker.instrumentRoutes(front.instance);
  const adapter = new FastifyAdapter({
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: config.trustProxy,
    bodyLimit: RELAY_BODY_LIMIT,
    serverFactory: front.serverFactory,
    schemaController: { compilersFactory: LAZY_SCHEMA_COMPILERS },
  });
  // Body parsing is ours (installHttpEdge): JSON only, bounded before anything transforms it.
  installHttpEdge(adapter.getInstance());
  tracker.instrumentRequests(adapter.getInstance());
  const started: { app?: NestFastifyApplication } = {};
  const exclusive = gatewayLockMode(config) === 'exclusive';
  const stores = await openStores(config, {
    onWriterLost: (error) => {
      // Without its writer the log takes no appends: requests would be answered and never recorded
      // (nor billed). Stop serving and exit non-zero so a supervisor restarts the process.
      new Logger('EventStore').error(`${error.message}: stopping the gateway`);
      process.exitCode = 1;
      void started.app?.close();
    },
    lockMode: gatewayLockMode(config),
    serving: true,
    // A projector in another process (the child, or scale-out's) hears of commits from the writer.
    ...(usesProjectorChild(config) || config.scaleOut ? { commitSignal: 'send' as const } : {}),
    // Alone on DATA_DIR (not scale-out): a lost read-model database comes back from a checkpoint.
    beforeReadStore: exclusive
      ? async (events) => {
          const logger = new Logger('ReadCheckpoints');
          await restoreLostReadStore(config, await events.headPosition(), (line) =>
            logger.log(line),
          );
        }
      : undefined,
  });
  // With a projector child, this process follows its head instead of projecting.
  const appConfig: AppConfig = projector ? { ...config, projections: 'off' } : config;
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(appConfig, stores, { tracker, log }, projector),
    adapter,
    { logger: new NestLogOverPino(log), bodyParser: false, abortOnError: false },
  ).catch(async (error: unknown) => {
    await stores.close(); // no half-started app keeps the DATA_DIR lock
    throw error;
  });
  if (projector) await launchProjectorChild(projector, stores.readStore);
  await app.register(fastifyCookie);
  // Nest answers POST with 201; the one-api/new-api contract (and the providers' APIs) answer 200.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (_request, reply) => {
      if (reply.statusCode === 201) void reply.code(200);
    });
  await serveConsole(app.getHttpAdapter().getInstance(), config.consoleDir);
  app.useGlobalPipes(validationPipe);
  app.useWebSocketAdapter(new IoAdapter(app));
  // SIGTERM / SIGINT: the hooks drain (the listener stops, open streams run to their end), the
  // stores close, then the process exits 0 (not killed by the signal); a repeated signal during the
  // drain is ignored (docs/operations.md).
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  started.app = app;
  return app;
}
