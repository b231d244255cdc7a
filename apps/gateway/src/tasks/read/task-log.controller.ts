import { Controller, Get, Query as QueryParams } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../../auth/auth.decorators';
import type { SignedInUser } from '../../auth/signed-in-user';
import { ok } from '../../shared/envelope';
import { ListMidjourneyTasksQuery, ListSunoTasksQuery } from './queries/task-log-queries.handler';
import {
  MidjourneyQueryParams,
  OwnMidjourneyQueryParams,
  OwnTaskQueryParams,
  TaskQueryParams,
} from './task-log.dto';

/**
 * The drawing log (绘图日志, /api/mj) and the task log (任务日志, /api/task): everyone's rows for
 * admins, one's own under /self (without channel_id).
 */
@Controller('api')
export class TaskLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get('mj')
  @RequireRole(Role.Admin)
  async midjourney(@QueryParams() params: MidjourneyQueryParams) {
    return ok(await this.queries.execute(new ListMidjourneyTasksQuery({ kind: 'all' }, params)));
  }

  @Get('mj/self')
  @RequireRole(Role.Common)
  async ownMidjourney(
    @QueryParams() params: OwnMidjourneyQueryParams,
    @CurrentUser() user: SignedInUser,
  ) {
    return ok(
      await this.queries.execute(
        new ListMidjourneyTasksQuery({ kind: 'self', userId: user.id }, params),
      ),
    );
  }

  @Get('task')
  @RequireRole(Role.Admin)
  async tasks(@QueryParams() params: TaskQueryParams) {
    return ok(await this.queries.execute(new ListSunoTasksQuery({ kind: 'all' }, params)));
  }

  @Get('task/self')
  @RequireRole(Role.Common)
  async ownTasks(@QueryParams() params: OwnTaskQueryParams, @CurrentUser() user: SignedInUser) {
    return ok(
      await this.queries.execute(new ListSunoTasksQuery({ kind: 'self', userId: user.id }, params)),
    );
  }
}
