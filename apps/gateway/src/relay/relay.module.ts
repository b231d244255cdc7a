import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { BalanceBook } from '../billing/balance-book';
import { Authenticator } from '../auth/authenticator';
import { ChannelsModule } from '../channels/channels.module';
import { RoutingTable } from '../channels/routing-table';
import { OptionsCache } from '../options/options.cache';
import { TokenDirectory } from '../tokens/token-directory';
import { UsageAppender } from '../usage/usage-appender';
import { RelayAdmission } from './relay-admission';
import { RelayCommands } from './relay-commands';
import {
  BALANCE_BOOK_PORT,
  RELAY_COMMANDS_PORT,
  ROUTING_TABLE_PORT,
  TOKEN_DIRECTORY_PORT,
  USAGE_APPENDER_PORT,
} from './relay-ports';
import { RELAY_OPTIONS_SOURCE, RelaySettingsView } from './relay-settings';
import { PLAYGROUND_AUTHENTICATOR, RelayRoutes } from './relay.routes';
import { RelayService } from './relay.service';
import { UpstreamPools } from './upstream-pools';

/**
 * The relay (/v1, /pg, /dashboard): plain Fastify routes registered on the app's instance at
 * module init (no Nest controller, pipe or guard on the hot path), reading the hot caches the
 * billing, tokens and channels modules keep.
 */
@Module({
  imports: [ChannelsModule],
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
    RelayService,
    RelayRoutes,
    RelayCommands,
    { provide: BALANCE_BOOK_PORT, useExisting: BalanceBook },
    { provide: TOKEN_DIRECTORY_PORT, useExisting: TokenDirectory },
    { provide: USAGE_APPENDER_PORT, useExisting: UsageAppender },
    { provide: ROUTING_TABLE_PORT, useExisting: RoutingTable },
    { provide: RELAY_COMMANDS_PORT, useExisting: RelayCommands },
  ],
})
export class RelayModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly routes: RelayRoutes,
  ) {}

  onModuleInit(): void {
    this.routes.register(this.adapterHost.httpAdapter.getInstance<FastifyInstance>());
  }
}
