import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import { BillingModule } from './billing/billing.module';
import { BootstrapModule } from './bootstrap/bootstrap.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import type { Stores } from './infrastructure/open-stores';
import { StorageModule } from './infrastructure/storage.module';
import { OptionsModule } from './options/options.module';
import { serverProjections } from './projection-registry';
import { RealtimeModule } from './realtime/realtime.module';
import { ApiExceptionFilter } from './shared/api-exception.filter';
import { StatusModule } from './status/status.module';
import { UsersModule } from './users/users.module';
import { SessionUsersOfReadModel } from './users/session-users-of-read-model';
import { UsageModule } from './usage/usage.module';
import { TokensModule } from './tokens/tokens.module';
import { RedemptionsModule } from './redemptions/redemptions.module';
import { LogsModule } from './logs/logs.module';
import { ChannelsModule } from './channels/channels.module';
import { RelayModule } from './relay/relay.module';
import { UsageDataModule } from './usage-data/usage-data.module';
import { MailModule } from './mail/mail.module';
import { TurnstileModule } from './turnstile/turnstile.module';
import { OAuthModule } from './oauth/oauth.module';
import { SetupModule } from './setup/setup.module';
import { HistoryModule } from './history/history.module';
import { PricingModule } from './pricing/pricing.module';
import { TopUpModule } from './topup/topup.module';
import { StripeModule } from './topup/stripe/stripe.module';
import { TasksModule } from './tasks/tasks.module';
import { HealthModule } from './health/health.module';
import { NoticesModule } from './notices/notices.module';
import { OpenApiModule } from './openapi/openapi.module';
import { type Observability, ObservabilityModule } from './observability/observability.module';
import { MetricsModule } from './metrics/metrics.module';
import { RetentionModule } from './retention/retention.module';
import type { ProjectorChild } from './infrastructure/projector-child/projector-child';

/** The gateway: infrastructure, then one module per feature (one import line each). */
@Module({})
export class AppModule {
  /** `projector`: the child process that writes the read models, when main.js started one. */
  static forRoot(
    config: AppConfig,
    stores: Stores,
    observability: Observability,
    projector: ProjectorChild | null = null,
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule.forRoot(observability),
        StorageModule.forStores(stores, serverProjections(config), projector),
        CqrsModule.forRoot(),
        AuthModule.forRoot(SessionUsersOfReadModel),
        OptionsModule,
        StatusModule,
        HealthModule,
        TurnstileModule,
        AccountsModule,
        MailModule,
        OAuthModule,
        SetupModule,
        UsersModule,
        RealtimeModule,
        BillingModule,
        UsageModule,
        TokensModule,
        RedemptionsModule,
        LogsModule,
        ChannelsModule,
        RelayModule,
        UsageDataModule,
        HistoryModule,
        PricingModule,
        TopUpModule,
        StripeModule,
        TasksModule,
        NoticesModule,
        RetentionModule,
        OpenApiModule,
        MetricsModule,
        BootstrapModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: ApiExceptionFilter }],
    };
  }
}
