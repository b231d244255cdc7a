import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ChannelSettings } from './channel-settings';
import { ChannelTasks } from './channel-tasks';
import { ChannelTestSchedule } from './channel-test-schedule';
import { ChannelUpstream } from './channel-upstream';
import { ChannelsController } from './channels.controller';
import {
  DisableChannelAutomaticallyHandler,
  EnableChannelAutomaticallyHandler,
} from './commands/automatic-status.handler';
import {
  TestAllChannelsHandler,
  TestChannelHandler,
  UpdateAllChannelBalancesHandler,
  UpdateChannelBalanceHandler,
} from './commands/channel-tasks.handler';
import { CopyChannelHandler } from './commands/copy-channel.handler';
import { CreateChannelsHandler } from './commands/create-channels.handler';
import {
  DeleteChannelHandler,
  DeleteChannelsHandler,
  DeleteDisabledChannelsHandler,
} from './commands/delete-channels.handler';
import { FixRoutingHandler } from './commands/fix-routing.handler';
import { UpdateChannelHandler } from './commands/update-channel.handler';
import {
  FetchModelsHandler,
  GetChannelHandler,
  EnabledModelsHandler,
  GroupModelsHandler,
  KnownModelsHandler,
  ListChannelsHandler,
  ModelsByTypeHandler,
} from './queries/channel-queries.handler';
import { RoutingTable } from './routing-table';

/**
 * Channels: management API, the relay's routing table (a hot cache), provider calls for tests,
 * balances and model lists. The channels read model is in ALL_PROJECTIONS.
 */
@Module({
  imports: [CqrsModule],
  controllers: [ChannelsController],
  providers: [
    RoutingTable,
    ChannelUpstream,
    ChannelSettings,
    ChannelTasks,
    ChannelTestSchedule,
    CreateChannelsHandler,
    UpdateChannelHandler,
    CopyChannelHandler,
    DeleteChannelHandler,
    DeleteChannelsHandler,
    DeleteDisabledChannelsHandler,
    FixRoutingHandler,
    TestChannelHandler,
    TestAllChannelsHandler,
    UpdateChannelBalanceHandler,
    UpdateAllChannelBalancesHandler,
    DisableChannelAutomaticallyHandler,
    EnableChannelAutomaticallyHandler,
    ListChannelsHandler,
    GetChannelHandler,
    KnownModelsHandler,
    ModelsByTypeHandler,
    GroupModelsHandler,
    EnabledModelsHandler,
    FetchModelsHandler,
  ],
  exports: [RoutingTable],
})
export class ChannelsModule {}
