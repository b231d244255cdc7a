import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query as QueryParams,
  UseGuards,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import { CriticalRateLimitGuard } from '../auth/critical-rate-limit.guard';
import type { SignedInUser } from '../auth/signed-in-user';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import type { RequestMeta } from '../shared/request-meta';
import { Meta } from '../shared/request-meta.decorator';
import { ChangeRedemptionCommand } from './commands/change-redemption.handler';
import { CreateRedemptionsCommand } from './commands/create-redemptions.handler';
import { RedeemCodeCommand } from './commands/redeem-code.handler';
import { GetRedemptionQuery, ListRedemptionsQuery } from './queries/redemption-queries.handler';
import {
  CreateRedemptionBody,
  RedemptionListQuery,
  RedemptionStatusOnlyQuery,
  TopUpBody,
  UpdateRedemptionBody,
} from './redemptions.dto';

const invalidId = () => new ApiError('common.invalid_params');

/** Redemption codes (兑换码): administrators and root. */
@Controller('api/redemption')
@RequireRole(Role.Admin)
export class RedemptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  async list(@QueryParams() query: RedemptionListQuery) {
    return ok(
      await this.queries.execute(new ListRedemptionsQuery(query.p ?? 1, query.page_size ?? 0)),
    );
  }

  @Get('search')
  async search(@QueryParams() query: RedemptionListQuery) {
    return ok(
      await this.queries.execute(
        new ListRedemptionsQuery(query.p ?? 1, query.page_size ?? 0, query.keyword ?? ''),
      ),
    );
  }

  @Get(':id')
  async get(@Param('id', new ParseIntPipe({ exceptionFactory: invalidId })) id: number) {
    return ok(await this.queries.execute(new GetRedemptionQuery(id)));
  }

  @Post()
  async create(
    @Body() body: CreateRedemptionBody,
    @CurrentUser() admin: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    return ok(
      await this.commands.execute(
        new CreateRedemptionsCommand(admin.id, body.name, body.quota, body.count ?? 1, meta),
      ),
    );
  }

  @Put()
  async update(
    @Body() body: UpdateRedemptionBody,
    @QueryParams() query: RedemptionStatusOnlyQuery,
    @Meta() meta: RequestMeta,
  ) {
    if (query.status_only) {
      if (body.status === undefined) throw new ApiError('redemption.status_invalid');
      await this.commands.execute(
        new ChangeRedemptionCommand(
          { type: 'ChangeRedemptionStatus', redemptionId: body.id, status: body.status },
          meta,
        ),
      );
    } else {
      if (body.name === undefined || body.quota === undefined)
        throw new ApiError('common.invalid_params');
      await this.commands.execute(
        new ChangeRedemptionCommand(
          { type: 'UpdateRedemption', redemptionId: body.id, name: body.name, quota: body.quota },
          meta,
        ),
      );
    }
    return ok(await this.queries.execute(new GetRedemptionQuery(body.id)));
  }

  @Delete(':id')
  async remove(
    @Param('id', new ParseIntPipe({ exceptionFactory: invalidId })) id: number,
    @Meta() meta: RequestMeta,
  ) {
    await this.commands.execute(
      new ChangeRedemptionCommand({ type: 'DeleteRedemption', redemptionId: id }, meta),
    );
    return ok();
  }
}

/** The wallet's code entry: any signed-in user; guessing is rate-limited like login. */
@Controller('api/user')
export class TopUpController {
  constructor(private readonly commands: CommandBus) {}

  @Post('topup')
  @RequireRole(Role.Common)
  @UseGuards(CriticalRateLimitGuard)
  async topUp(
    @Body() body: TopUpBody,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    return ok(await this.commands.execute(new RedeemCodeCommand(user.id, body.key, meta)));
  }
}
