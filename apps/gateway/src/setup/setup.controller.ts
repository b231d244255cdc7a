import { Body, Controller, Get, Inject, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { SetupStatusDto } from '@tollgate/contracts';
import { CriticalRateLimitGuard } from '../auth/critical-rate-limit.guard';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { ok } from '../shared/envelope';
import { translate } from '../shared/i18n/messages';
import { Meta } from '../shared/request-meta.decorator';
import type { RequestMeta } from '../shared/request-meta';
import { CompleteSetupCommand } from './commands/complete-setup.handler';
import { SetupBody } from './setup.dto';
import { SetupState } from './setup-state';

/** new-api's first-run wizard: GET says whether it is open, POST completes it (once). */
@Controller('api/setup')
export class SetupController {
  constructor(
    private readonly setup: SetupState,
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async status() {
    const done = await this.setup.isDone();
    return ok<SetupStatusDto>({
      status: done,
      root_init: done,
      database_type: this.config.eventStoreUrl ? 'eventstoredb' : 'sqlite',
    });
  }

  @Post()
  @UseGuards(CriticalRateLimitGuard)
  async complete(@Body() body: SetupBody, @Meta() meta: RequestMeta) {
    await this.commands.execute(new CompleteSetupCommand(body, meta));
    return ok(undefined, translate('setup.completed', {}, meta.lang));
  }
}
