import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AccountsController } from './accounts/accounts.controller';
import { DeleteSelfHandler } from './accounts/commands/delete-self.command';
import { IssueAccessTokenHandler } from './accounts/commands/issue-access-token.command';
import { RegisterUserHandler } from './accounts/commands/register-user.command';
import { TransferAffQuotaHandler } from './accounts/commands/transfer-aff-quota.command';
import { UpdateSelfHandler } from './accounts/commands/update-self.command';
import { LoginHandler } from './accounts/queries/login.query';
import { UserGroupsHandler, UserModelsHandler } from './accounts/queries/user-groups.query';
import { UniqueClaims } from './accounts/unique-claims';
import { UserRegistrar } from './accounts/user-registrar';
import { AuthGuard } from './auth/auth.guard';
import { Authenticator } from './auth/authenticator';
import { CriticalRateLimitGuard } from './auth/critical-rate-limit.guard';
import { BillingModule } from './billing/billing.module';
import { UsageModule } from './usage/usage.module';
import { TokensModule } from './tokens/tokens.module';
import { RedemptionsModule } from './redemptions/redemptions.module';
import { LogsModule } from './logs/logs.module';
import { ChannelsModule } from './channels/channels.module';
import { RelayModule } from './relay/relay.module';
import { UsageDataModule } from './usage-data/usage-data.module';
import { BootstrapRootHandler } from './bootstrap/bootstrap-root.command';
import { StartupService } from './bootstrap/startup.service';
import type { AppConfig } from './config/app-config';
import { APP_CONFIG } from './infrastructure/injection-tokens';
import type { Stores } from './infrastructure/open-stores';
import { StorageModule } from './infrastructure/storage.module';
import { ResetModelRatiosHandler } from './options/commands/reset-model-ratios.command';
import { UpdateOptionHandler } from './options/commands/update-option.command';
import { OptionsCache } from './options/options.cache';
import { OptionsController } from './options/options.controller';
import { RealtimeGateway } from './realtime/realtime.gateway';
import { ApiExceptionFilter } from './shared/api-exception.filter';
import { StatusController } from './status/status.controller';
import { StatusService } from './status/status.service';
import { CreateUserHandler } from './users/commands/create-user.command';
import { ManageUserHandler } from './users/commands/manage-user.command';
import { UpdateUserHandler } from './users/commands/update-user.command';
import { GetUserHandler } from './users/queries/get-user.query';
import { ListUsersHandler } from './users/queries/list-users.query';
import { UsersController } from './users/users.controller';

const HANDLERS = [
  BootstrapRootHandler,
  RegisterUserHandler,
  UpdateSelfHandler,
  DeleteSelfHandler,
  IssueAccessTokenHandler,
  TransferAffQuotaHandler,
  LoginHandler,
  UserGroupsHandler,
  UserModelsHandler,
  CreateUserHandler,
  UpdateUserHandler,
  ManageUserHandler,
  ListUsersHandler,
  GetUserHandler,
  UpdateOptionHandler,
  ResetModelRatiosHandler,
];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, stores: Stores): DynamicModule {
    const configModule: DynamicModule = {
      module: class ConfigModule {},
      global: true,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
    return {
      module: AppModule,
      imports: [
        configModule,
        StorageModule.forStores(stores),
        CqrsModule.forRoot(),
        BillingModule,
        UsageModule,
        TokensModule,
        RedemptionsModule,
        LogsModule,
        ChannelsModule,
        RelayModule,
        UsageDataModule,
      ],
      controllers: [AccountsController, UsersController, OptionsController, StatusController],
      providers: [
        ...HANDLERS,
        Authenticator,
        CriticalRateLimitGuard,
        OptionsCache,
        UserRegistrar,
        UniqueClaims,
        StatusService,
        RealtimeGateway,
        StartupService,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
