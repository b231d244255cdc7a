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
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { UserGroupsQuery } from '../accounts/queries/user-groups.handler';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import type { SignedInUser } from '../auth/signed-in-user';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import type { RequestMeta } from '../shared/request-meta';
import { Meta } from '../shared/request-meta.decorator';
import { ChangeTokenCommand } from './commands/change-token.handler';
import { CreateTokensCommand } from './commands/create-tokens.handler';
import { GetTokenQuery, ListTokensQuery } from './queries/token-queries.handler';
import { toTokenInput } from './token-input';
import {
  CreateTokenBody,
  StatusOnlyQuery,
  TokenListQuery,
  TokenSearchQueryParams,
  UpdateTokenBody,
} from './tokens.dto';

const invalidId = () => new ApiError('common.invalid_params');

/** A signed-in user's own tokens. Another user's token is "not found" everywhere. */
@Controller('api/token')
@RequireRole(Role.Common)
export class TokensController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Groups a token may name: the ones the owner may pick on the console (UserUsableGroups + own). */
  private async allowedGroups(user: SignedInUser): Promise<string[]> {
    return Object.keys(await this.queries.execute(new UserGroupsQuery(user.group)));
  }

  @Get()
  async list(@QueryParams() query: TokenListQuery, @CurrentUser() user: SignedInUser) {
    return ok(
      await this.queries.execute(new ListTokensQuery(user.id, query.p ?? 0, query.size ?? 0)),
    );
  }

  @Get('search')
  async search(@QueryParams() query: TokenSearchQueryParams, @CurrentUser() user: SignedInUser) {
    return ok(
      await this.queries.execute(
        new ListTokensQuery(
          user.id,
          query.p ?? 0,
          query.size ?? 100,
          query.keyword ?? '',
          query.token ?? '',
        ),
      ),
    );
  }

  @Get(':id')
  async get(
    @Param('id', new ParseIntPipe({ exceptionFactory: invalidId })) id: number,
    @CurrentUser() user: SignedInUser,
  ) {
    return ok(await this.queries.execute(new GetTokenQuery(user.id, id)));
  }

  @Post()
  async create(
    @Body() body: CreateTokenBody,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    const result = await this.commands.execute(
      new CreateTokensCommand(
        user.id,
        toTokenInput(body),
        body.count ?? 1,
        await this.allowedGroups(user),
        meta,
      ),
    );
    return ok(result);
  }

  @Put()
  async update(
    @Body() body: UpdateTokenBody,
    @QueryParams() query: StatusOnlyQuery,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    if (query.status_only) {
      if (body.status === undefined) throw new ApiError('token.status_invalid');
      await this.commands.execute(
        new ChangeTokenCommand(
          { type: 'ChangeTokenStatus', tokenId: body.id, userId: user.id, status: body.status },
          meta,
        ),
      );
    } else {
      await this.commands.execute(
        new ChangeTokenCommand(
          {
            type: 'UpdateToken',
            tokenId: body.id,
            userId: user.id,
            input: toTokenInput(body),
            allowedGroups: await this.allowedGroups(user),
          },
          meta,
        ),
      );
    }
    return ok(await this.queries.execute(new GetTokenQuery(user.id, body.id)));
  }

  @Delete(':id')
  async remove(
    @Param('id', new ParseIntPipe({ exceptionFactory: invalidId })) id: number,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    await this.commands.execute(
      new ChangeTokenCommand({ type: 'DeleteToken', tokenId: id, userId: user.id }, meta),
    );
    return ok();
  }
}
