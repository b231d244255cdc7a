import type { Server } from 'node:http';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../infrastructure/injection-tokens';
import { ReadinessProbe } from './readiness';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * The first SIGTERM / SIGINT turns /readyz to 503 at once and starts the grace period; Nest's
 * shutdown hooks then stop the listener and wait for the open requests and streams (the server
 * closes when they end). Past SHUTDOWN_GRACE_MS the connections still open are cut, so a stuck
 * client cannot hold the process. Repeated signals change nothing.
 */
@Injectable()
export class ShutdownDrain implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private deadline: NodeJS.Timeout | undefined;
  private readonly onSignal = (signal: string) => this.begin(signal);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly readiness: ReadinessProbe,
  ) {}

  onApplicationBootstrap(): void {
    for (const signal of SIGNALS) process.on(signal, this.onSignal);
  }

  onApplicationShutdown(): void {
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
    if (this.deadline) clearTimeout(this.deadline);
  }

  begin(signal: string): void {
    if (this.deadline) return;
    this.readiness.markShuttingDown();
    const grace = this.config.shutdownGraceMs;
    this.logger.log(`${signal}: draining open requests (up to ${grace} ms)`);
    this.deadline = setTimeout(() => {
      const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
      this.logger.warn(`grace period over: cutting the connections still open`);
      server?.closeAllConnections();
    }, grace);
    this.deadline.unref();
  }
}
