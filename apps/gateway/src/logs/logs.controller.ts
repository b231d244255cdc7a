import { Controller, Delete, Get, Headers, Query as QueryParams, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import { CriticalRateLimitGuard } from '../auth/critical-rate-limit.guard';
import type { SignedInUser } from '../auth/signed-in-user';
import { ok } from '../shared/envelope';
import type { RequestMeta } from '../shared/request-meta';
import { Meta } from '../shared/request-meta.decorator';
import { ClearLogsCommand } from './commands/clear-logs.handler';
import { ListLogsQuery, LogStatQuery } from './queries/log-queries.handler';
import { SearchSelfLogsQuery, TokenLogsQuery } from './queries/log-lookups.handler';
import { ClearLogsQuery, LogQueryParams, LogSearchParams, TokenLogParams } from './logs.dto';

/** The log: everyone's rows for admins, one's own under /self, a token's for its key holder. */
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

  @Get('self/search')
  @RequireRole(Role.Common)
  async selfSearch(@QueryParams() params: LogSearchParams, @CurrentUser() user: SignedInUser) {
    return ok(await this.queries.execute(new SearchSelfLogsQuery(user.id, params.keyword ?? '')));
  }

  /** No session: the key is the credential (Authorization, as new-api reads it, or ?key=). */
  @Get('token')
  @UseGuards(CriticalRateLimitGuard)
  async byToken(
    @QueryParams() params: TokenLogParams,
    @Headers('authorization') authorization: string | undefined,
  ) {
    const key = authorization?.trim() || params.key || '';
    return ok(await this.queries.execute(new TokenLogsQuery(key)));
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
