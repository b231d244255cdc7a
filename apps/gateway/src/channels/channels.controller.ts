import {
  Body,
  Controller,
  Delete,
  Get,
  createParamDecorator,
  type ExecutionContext,
  Post,
  Put,
  Query as QueryParams,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Role, type ChannelBalanceResult, type ChannelTestResult } from '@tollgate/contracts';
import { RequireRole } from '../auth/auth.decorators';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import type { RequestMeta } from '../shared/request-meta';
import { Meta } from '../shared/request-meta.decorator';
import {
  TestAllChannelsCommand,
  TestChannelCommand,
  UpdateAllChannelBalancesCommand,
  UpdateChannelBalanceCommand,
} from './commands/channel-tasks.handler';
import { CopyChannelCommand } from './commands/copy-channel.handler';
import { CreateChannelsCommand } from './commands/create-channels.handler';
import {
  DeleteChannelCommand,
  DeleteChannelsCommand,
  DeleteDisabledChannelsCommand,
} from './commands/delete-channels.handler';
import { FixRoutingCommand } from './commands/fix-routing.handler';
import { UpdateChannelCommand } from './commands/update-channel.handler';
import {
  ChannelIdsBody,
  ChannelListQuery,
  ChannelTestQuery,
  CopyChannelQuery,
  CreateChannelBody,
  FetchModelsBody,
  UpdateChannelBody,
} from './channels.dto';
import {
  EnabledModelsQuery,
  FetchModelsQuery,
  GetChannelQuery,
  KnownModelsQuery,
  ListChannelsQuery,
} from './queries/channel-queries.handler';

/**
 * The `:id` path parameter: plain positive decimal integers only (no hex, signs, exponents or
 * full-width digits). A param decorator, because the global pipe would already have turned
 * "0x1" into 1 before a param pipe saw it.
 */
const ChannelId = createParamDecorator((_data: unknown, context: ExecutionContext): number => {
  const value = context.switchToHttp().getRequest<{ params: Record<string, string> }>().params[
    'id'
  ];
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647)
    throw new ApiError('common.invalid_params');
  return Number(value);
});

/** Channel management (管理渠道): administrators and root. Keys are write-only. */
@Controller('api/channel')
@RequireRole(Role.Admin)
export class ChannelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  async list(@QueryParams() query: ChannelListQuery) {
    return ok(
      await this.queries.execute(
        new ListChannelsQuery(query.p ?? 0, query.page_size ?? 0, query.id_sort ?? false),
      ),
    );
  }

  @Get('search')
  async search(@QueryParams() query: ChannelListQuery) {
    return ok(
      await this.queries.execute(
        new ListChannelsQuery(query.p ?? 0, query.page_size ?? 0, query.id_sort ?? false, {
          keyword: query.keyword,
          group: query.group,
          model: query.model,
        }),
      ),
    );
  }

  @Get('models')
  async models() {
    return ok(await this.queries.execute(new KnownModelsQuery()));
  }

  /** The models of enabled channels: the operation settings list those without a ratio. */
  @Get('models_enabled')
  async enabledModels() {
    return ok(await this.queries.execute(new EnabledModelsQuery()));
  }

  @Get('test')
  async testAll(@Meta() meta: RequestMeta) {
    await this.commands.execute(new TestAllChannelsCommand(meta));
    return ok();
  }

  @Get('test/:id')
  async test(
    @ChannelId() id: number,
    @QueryParams() query: ChannelTestQuery,
    @Meta() meta: RequestMeta,
  ): Promise<ChannelTestResult> {
    return this.commands.execute(new TestChannelCommand(id, query.model?.trim() ?? '', meta));
  }

  @Get('update_balance')
  async updateAllBalances(@Meta() meta: RequestMeta) {
    await this.commands.execute(new UpdateAllChannelBalancesCommand(meta));
    return ok();
  }

  @Get('update_balance/:id')
  async updateBalance(
    @ChannelId() id: number,
    @Meta() meta: RequestMeta,
  ): Promise<ChannelBalanceResult> {
    const balance = await this.commands.execute(new UpdateChannelBalanceCommand(id, meta));
    return { success: true, message: '', balance };
  }

  @Get('fetch_models/:id')
  async fetchModels(@ChannelId() id: number) {
    return ok(await this.queries.execute(new FetchModelsQuery({ id })));
  }

  @Post('fetch_models')
  async fetchModelsFor(@Body() body: FetchModelsBody) {
    return ok(
      await this.queries.execute(
        new FetchModelsQuery({
          type: body.type,
          key: body.key ?? '',
          baseUrl: body.base_url ?? '',
        }),
      ),
    );
  }

  @Get(':id')
  async get(@ChannelId() id: number) {
    return ok(await this.queries.execute(new GetChannelQuery(id)));
  }

  @Post()
  async create(@Body() body: CreateChannelBody, @Meta() meta: RequestMeta) {
    const { ids } = await this.commands.execute(
      new CreateChannelsCommand(body.channel ?? body, body.mode, meta),
    );
    return ok({ ids });
  }

  @Put()
  async update(@Body() body: UpdateChannelBody, @Meta() meta: RequestMeta) {
    await this.commands.execute(new UpdateChannelCommand(body, meta));
    return ok(await this.queries.execute(new GetChannelQuery(body.id)));
  }

  @Delete('disabled')
  async deleteDisabled(@Meta() meta: RequestMeta) {
    return ok(await this.commands.execute(new DeleteDisabledChannelsCommand(meta)));
  }

  @Delete(':id')
  async delete(@ChannelId() id: number, @Meta() meta: RequestMeta) {
    await this.commands.execute(new DeleteChannelCommand(id, meta));
    return ok();
  }

  @Post('batch')
  async batchDelete(@Body() body: ChannelIdsBody, @Meta() meta: RequestMeta) {
    return ok(await this.commands.execute(new DeleteChannelsCommand(body.ids, meta)));
  }

  @Post('fix')
  async fix(@Meta() meta: RequestMeta) {
    return ok(await this.commands.execute(new FixRoutingCommand(meta)));
  }

  @Post('copy/:id')
  async copy(
    @ChannelId() id: number,
    @QueryParams() query: CopyChannelQuery,
    @Meta() meta: RequestMeta,
  ) {
    return ok(
      await this.commands.execute(
        new CopyChannelCommand(id, query.suffix ?? '_复制', query.reset_balance ?? true, meta),
      ),
    );
  }
}
