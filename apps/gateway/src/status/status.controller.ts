import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { RequireRole } from '../auth/auth.decorators';
import { ModelsByTypeQuery } from '../channels/queries/channel-queries.handler';
import { OptionsCache } from '../options/options.cache';
import { ok } from '../shared/envelope';
import { StatusService } from './status.service';

/** Public status and pages, plus the group and model catalogues. */
@Controller('api')
export class StatusController {
  constructor(
    private readonly status: StatusService,
    private readonly options: OptionsCache,
    private readonly queries: QueryBus,
  ) {}

  @Get('status')
  async getStatus() {
    return ok(await this.status.status());
  }

  @Get('notice')
  notice() {
    return ok(this.options.get('Notice'));
  }

  @Get('about')
  about() {
    return ok(this.options.get('About'));
  }

  @Get('home_page_content')
  homePageContent() {
    return ok(this.options.get('HomePageContent'));
  }

  @Get('group')
  @RequireRole(Role.Admin)
  groups() {
    return ok(Object.keys(this.options.json<Record<string, number>>('GroupRatio', {})));
  }

  @Get('models')
  @RequireRole(Role.Common)
  async models() {
    return ok(await this.queries.execute(new ModelsByTypeQuery()));
  }
}
