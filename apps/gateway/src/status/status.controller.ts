import { Controller, Get, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { RequireRole } from '../auth/auth.decorators';
import { ModelsByTypeQuery } from '../channels/queries/channel-queries.handler';
import { ReadinessProbe } from '../health/readiness';
import { REQUEST_TRACKER } from '../observability/observability.tokens';
import type { RequestTracker } from '../observability/request-tracker';
import { ApiError } from '../shared/api-error';
import { OptionsCache } from '../options/options.cache';
import { ok } from '../shared/envelope';
import { StatusService } from './status.service';

/** new-api's answer text (not translated there either) and its status when storage is down. */
const SERVER_RUNNING = 'Server is running';
const STORAGE_DOWN_STATUS = 503;

/** Public status and pages, plus the group and model catalogues. */
@Controller('api')
export class StatusController {
  constructor(
    private readonly status: StatusService,
    private readonly options: OptionsCache,
    private readonly queries: QueryBus,
    private readonly readiness: ReadinessProbe,
    @Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker,
  ) {}

  @Get('status')
  async getStatus() {
    return ok(await this.status.status());
  }

  /**
   * new-api's server test: the storage answers (else 503), and the requests being served now.
   * Top-level fields beside success and message, as new-api answers them.
   */
  @Get('status/test')
  @RequireRole(Role.Admin)
  async test() {
    const { checks } = await this.readiness.check();
    if (!checks.storage.ok) throw new ApiError('status.storage_down', {}, STORAGE_DOWN_STATUS);
    return {
      success: true,
      message: SERVER_RUNNING,
      http_stats: { active_connections: this.tracker.inFlight },
    };
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
