import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { ReadinessProbe } from './readiness';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * The first SIGTERM / SIGINT turns /readyz to 503 at once. For SHUTDOWN_DELAY_MS the listener
 * still serves (a load balancer sees the 503 and stops sending before the port closes); then Nest's
 * shutdown hooks stop the listener and wait for the open requests and streams (the server closes
 * when they end). SHUTDOWN_GRACE_MS into that drain the connections still open are cut, so a stuck
 * client cannot hold the process. Repeated signals change nothing.
 */
@Injectable()
export class ShutdownDrain
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('Shutdown');
  /** Set by the first signal; resolves when the pre-stop delay is over and the drain begins. */
  private preStop: Promise<void> | undefined;
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

  /**
   * Nest closes the listener right after this hook: the pre-stop delay holds it open until then
   * (no wait without a signal, as on `app.close()`).
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.preStop;
  }

  onApplicationShutdown(): void {
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
    if (this.deadline) clearTimeout(this.deadline);
  }

  begin(signal: string): void {
    if (this.preStop) return;
    this.readiness.markShuttingDown();
    const { shutdownDelayMs: delay, shutdownGraceMs: grace } = this.config;
    if (delay > 0) this.logger.log(`${signal}: /readyz is 503, still serving for ${delay} ms`);
    this.preStop = sleep(delay).then(() => this.drain(signal, grace));
  }

  private drain(signal: string, grace: number): void {
    this.logger.log(`${signal}: draining open requests (up to ${grace} ms)`);
    this.deadline = setTimeout(() => {
      const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
      this.logger.warn(`grace period over: cutting the connections still open`);
      server?.closeAllConnections();
    }, grace);
    this.deadline.unref();
  }
}
