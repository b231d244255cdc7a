import { Controller, Get, Query as QueryParams } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { RequireRole } from '../auth/auth.decorators';
import { ok } from '../shared/envelope';
import { ChannelPerformanceParams, PERFORMANCE_WINDOW_DEFAULT } from './channel-performance.dto';
import { ChannelPerformanceQuery } from './channel-performance.handler';

/** What each channel did per model lately (the console's channel list and dashboard). */
@Controller('api/channel')
@RequireRole(Role.Admin)
export class ChannelPerformanceController {
  constructor(private readonly queries: QueryBus) {}

  /** Calls, error rate, share and latency percentiles per channel × model over `window` minutes. */
  @Get('performance')
  async performance(@QueryParams() params: ChannelPerformanceParams) {
    const window = params.window ?? PERFORMANCE_WINDOW_DEFAULT;
    return ok(await this.queries.execute(new ChannelPerformanceQuery(window)));
  }
}
