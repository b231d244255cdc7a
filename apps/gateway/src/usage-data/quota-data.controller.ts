import { Controller, Get, Query as QueryParams } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import type { SignedInUser } from '../auth/signed-in-user';
import { ok } from '../shared/envelope';
import { QuotaDataParams } from './quota-data.dto';
import { QuotaDataQuery } from './quota-data.handler';
import { FailureRatesQuery } from './failure-rates.handler';

/** The dashboard's hourly usage (/detail): everyone's for admins, one's own under /self. */
@Controller('api/data')
export class QuotaDataController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireRole(Role.Admin)
  async all(@QueryParams() params: QuotaDataParams) {
    return ok(await this.queries.execute(new QuotaDataQuery({ kind: 'all' }, params)));
  }

  /** Failed ÷ all calls per channel over the range. */
  @Get('failures')
  @RequireRole(Role.Admin)
  async failures(@QueryParams() params: QuotaDataParams) {
    return ok(await this.queries.execute(new FailureRatesQuery({ kind: 'all' }, params)));
  }

  /** Failed ÷ all of the caller's calls per model over the range. */
  @Get('self/failures')
  @RequireRole(Role.Common)
  async selfFailures(@QueryParams() params: QuotaDataParams, @CurrentUser() user: SignedInUser) {
    return ok(
      await this.queries.execute(new FailureRatesQuery({ kind: 'self', userId: user.id }, params)),
    );
  }

  @Get('self')
  @RequireRole(Role.Common)
  async self(@QueryParams() params: QuotaDataParams, @CurrentUser() user: SignedInUser) {
    return ok(
      await this.queries.execute(new QuotaDataQuery({ kind: 'self', userId: user.id }, params)),
    );
  }
}
