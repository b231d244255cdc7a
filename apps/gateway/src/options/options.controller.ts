import { Body, Controller, Get, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Role, type OptionDto } from '@tollgate/contracts';
import { isSecretOption } from '@tollgate/domain';
import { RequireRole } from '../auth/auth.decorators';
import { ok } from '../shared/envelope';
import { Meta } from '../shared/request-meta.decorator';
import type { RequestMeta } from '../shared/request-meta';
import { ResetModelRatiosCommand } from './commands/reset-model-ratios.handler';
import { UpdateOptionCommand } from './commands/update-option.handler';
import { OptionsCache } from './options.cache';
import { UpdateOptionBody } from './options.dto';

/** System options: root only. Secret values never leave the server. */
@Controller('api/option')
@RequireRole(Role.Root)
export class OptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly options: OptionsCache,
  ) {}

  @Get()
  list() {
    const items: OptionDto[] = this.options
      .entries()
      .filter(([key]) => !isSecretOption(key))
      .map(([key, value]) => ({ key, value }));
    return ok(items);
  }

  @Put()
  async update(@Body() body: UpdateOptionBody, @Meta() meta: RequestMeta) {
    await this.commands.execute(new UpdateOptionCommand(body.key, body.value, meta));
    return ok();
  }

  @Post('rest_model_ratio')
  async resetModelRatios(@Meta() meta: RequestMeta) {
    await this.commands.execute(new ResetModelRatiosCommand(meta));
    return ok();
  }
}
