import { Controller, Get, Post } from '@nestjs/common';
import { Role } from '@tollgate/contracts';
import { RequireRole } from '../auth/auth.decorators';
import { ok } from '../shared/envelope';
import { TaskPoller } from './task-poller';

/**
 * The task poller, for administrators: each channel's polling state (failures, backoff, last
 * error) and a round on demand (after fixing a channel, and in tests instead of waiting).
 */
@Controller('api/task')
export class TaskPollController {
  constructor(private readonly poller: TaskPoller) {}

  @Get('poll-status')
  @RequireRole(Role.Admin)
  status() {
    return ok(this.poller.status());
  }

  @Post('poll')
  @RequireRole(Role.Admin)
  async poll() {
    await this.poller.pollNow();
    return ok(this.poller.status());
  }
}
