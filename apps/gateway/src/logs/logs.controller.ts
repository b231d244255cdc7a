import { Controller, Delete, Get, Query as QueryParams } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import type { SignedInUser } from '../auth/signed-in-user';
import { ok } from '../shared/envelope';
import type { RequestMeta } from '../shared/request-meta';
import { Meta } from '../shared/request-meta.decorator';
import { ClearLogsCommand } from './commands/clear-logs.handler';
import { ListLogsQuery, LogStatQuery } from './queries/log-queries.handler';
import { ClearLogsQuery, LogQueryParams } from './logs.dto';

/** The log: everyone's rows for admins, one's own under /self. */
@Controller('api/log')
export class LogsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @RequireRole(Role.Admin)
  async all(@QueryParams() params: LogQueryParams) {
    return ok(await this.queries.execute(new ListLogsQuery({ kind: 'all' }, params)));
  }

  @Get('self')
  @RequireRole(Role.Common)
  async self(@QueryParams() params: LogQueryParams, @CurrentUser() user: SignedInUser) {
    return ok(
      await this.queries.execute(new ListLogsQuery({ kind: 'self', userId: user.id }, params)),
    );
  }

  @Get('stat')
  @RequireRole(Role.Admin)
  async stat(@QueryParams() params: LogQueryParams) {
    return ok(await this.queries.execute(new LogStatQuery({ kind: 'all' }, params)));
  }

  @Get('self/stat')
  @RequireRole(Role.Common)
  async selfStat(@QueryParams() params: LogQueryParams, @CurrentUser() user: SignedInUser) {
    return ok(
      await this.queries.execute(new LogStatQuery({ kind: 'self', userId: user.id }, params)),
    );
  }

  @Delete()
  @RequireRole(Role.Root)
  async clear(@QueryParams() query: ClearLogsQuery, @Meta() meta: RequestMeta) {
    return ok(await this.commands.execute(new ClearLogsCommand(query.target_timestamp, meta)));
  }
}
