import type { Server } from 'node:http';
import { Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { BalanceBook } from '../billing/balance-book';
import { BalanceLeases } from '../billing/balance-leases';
import { Authenticator } from '../auth/authenticator';
import { ChannelsModule } from '../channels/channels.module';
import { RoutingTable } from '../channels/routing-table';
import { OptionsCache } from '../options/options.cache';
import { RateLimitsModule } from '../rate-limits/rate-limits.module';
import { ScaleOutLimits } from '../rate-limits/scale-out-limits';
import { TokenDirectory } from '../tokens/token-directory';
import { UsageAppender } from '../usage/usage-appender';
import { ChannelStatsSeeder } from './channel-stats-seeder';
import { RelayAdmission } from './relay-admission';
import { RelayCommands } from './relay-commands';
import { RelayGate } from './relay-gate';
import { relayFrontOf, relayLaneOf } from './relay-front';
import {
  BALANCE_BOOK_PORT,
  BALANCE_LEASES_PORT,
  RELAY_COMMANDS_PORT,
  ROUTING_TABLE_PORT,
  SCALE_OUT_LIMITS_PORT,
  TOKEN_DIRECTORY_PORT,
  USAGE_APPENDER_PORT,
} from './relay-ports';
import { RELAY_OPTIONS_SOURCE, RelaySettingsView } from './relay-settings';
import { PLAYGROUND_AUTHENTICATOR, RelayRoutes } from './relay.routes';
import { RelayService } from './relay.service';
import { RelayRouteExtensions } from './relay-route-extensions';
import { TASK_RELAY_PORT } from './task-relay-port';
import { TaskRelayAdapter } from './task-relay-adapter';
import { UpstreamPools } from './upstream-pools';

/**
 * The relay (/v1, /pg, /dashboard): plain Fastify routes registered at module init on the relay's
 * own instance in front of the app's (relay-front.ts; no Nest controller, pipe, guard or hook on
 * the hot path), reading the hot caches the billing, tokens and channels modules keep. The task
 * relays (/mj, /suno) join its front through TASK_RELAY_PORT (task-relay-port.ts).
 */
@Module({
  imports: [ChannelsModule, RateLimitsModule],
  providers: [
    // The app module provides these two; the relay reads them without owning them.
    {
      provide: RELAY_OPTIONS_SOURCE,
      inject: [ModuleRef],
      useFactory: (ref: ModuleRef) => () => ref.get(OptionsCache, { strict: false }),
    },
    {
      provide: PLAYGROUND_AUTHENTICATOR,
      inject: [ModuleRef],
      useFactory: (ref: ModuleRef) => () => ref.get(Authenticator, { strict: false }),
    },
    RelaySettingsView,
    UpstreamPools,
    RelayAdmission,
    RelayGate,
    RelayService,
    // Adaptive routing's figures from the recent receipts, at start-up.
    ChannelStatsSeeder,
    RelayRoutes,
    RelayCommands,
    { provide: BALANCE_BOOK_PORT, useExisting: BalanceBook },
    { provide: BALANCE_LEASES_PORT, useExisting: BalanceLeases },
    { provide: SCALE_OUT_LIMITS_PORT, useExisting: ScaleOutLimits },
    { provide: TOKEN_DIRECTORY_PORT, useExisting: TokenDirectory },
    { provide: USAGE_APPENDER_PORT, useExisting: UsageAppender },
    { provide: ROUTING_TABLE_PORT, useExisting: RoutingTable },
    { provide: RELAY_COMMANDS_PORT, useExisting: RelayCommands },
    RelayRouteExtensions,
    { provide: TASK_RELAY_PORT, useClass: TaskRelayAdapter },
  ],
  exports: [TASK_RELAY_PORT],
})
export class RelayModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly routes: RelayRoutes,
  ) {}

  private get server(): Server {
    return this.adapterHost.httpAdapter.getHttpServer() as Server;
  }

  private get front(): FastifyInstance | undefined {
    return relayFrontOf(this.server);
  }

  async onModuleInit(): Promise<void> {
    const front = this.front;
    // Without the front (an app not built by createApp) the routes join the app's instance.
    this.routes.register(
      front ?? this.adapterHost.httpAdapter.getInstance<FastifyInstance>(),
      relayLaneOf(this.server),
    );
    await front?.ready();
  }

  /** After the listener closed (its drain and the pre-stop delay are over): nothing new comes. */
  async onApplicationShutdown(): Promise<void> {
    await this.front?.close();
  }
}
