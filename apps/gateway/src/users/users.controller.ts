import {
  Body,
  Controller,
  Get,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query as QueryParams,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import type { SignedInUser } from '../auth/signed-in-user';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import { Meta } from '../shared/request-meta.decorator';
import type { RequestMeta } from '../shared/request-meta';
import { CreateUserCommand } from './commands/create-user.handler';
import { ManageUserCommand } from './commands/manage-user.handler';
import { UpdateUserCommand } from './commands/update-user.handler';
import { GetUserQuery } from './queries/get-user.handler';
import { ListUsersQuery } from './queries/list-users.handler';
import { CreateUserBody, ManageUserBody, UpdateUserBody, UserListQuery } from './users.dto';

const invalidId = () => new ApiError('common.invalid_params');
const viewerOf = (user: SignedInUser) => ({ id: user.id, role: user.role });

/** User management (管理用户): administrators and root. */
@Controller('api/user')
@RequireRole(Role.Admin)
export class UsersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  async list(@QueryParams() query: UserListQuery, @CurrentUser() viewer: SignedInUser) {
    return ok(
      await this.queries.execute(
        new ListUsersQuery(query.p ?? 1, query.page_size ?? 0, viewerOf(viewer)),
      ),
    );
  }

  @Get('search')
  async search(@QueryParams() query: UserListQuery, @CurrentUser() viewer: SignedInUser) {
    return ok(
      await this.queries.execute(
        new ListUsersQuery(
          query.p ?? 1,
          query.page_size ?? 0,
          viewerOf(viewer),
          query.keyword ?? '',
          query.group ?? '',
        ),
      ),
    );
  }

  @Get(':id')
  async get(
    @Param('id', new ParseIntPipe({ exceptionFactory: invalidId })) id: number,
    @CurrentUser() viewer: SignedInUser,
  ) {
    return ok(await this.queries.execute(new GetUserQuery(id, viewer)));
  }

  @Post()
  async create(@Body() body: CreateUserBody, @Meta() meta: RequestMeta) {
    await this.commands.execute(new CreateUserCommand(body, meta));
    return ok();
  }

  @Put()
  async update(
    @Body() body: UpdateUserBody,
    @CurrentUser() actor: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    await this.commands.execute(
      new UpdateUserCommand(body, { id: actor.id, role: actor.role }, meta),
    );
    return ok();
  }

  @Post('manage')
  async manage(
    @Body() body: ManageUserBody,
    @CurrentUser() actor: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    return ok(
      await this.commands.execute(
        new ManageUserCommand(body.id, body.action, { id: actor.id, role: actor.role }, meta),
      ),
    );
  }
}
