import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { QuotaDataRowDto } from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { ApiError } from '../shared/api-error';
import {
  QUOTA_DATA,
  QUOTA_DATA_TOTAL,
  type QuotaDataDocument,
  type QuotaDataTotalDocument,
} from './quota-data.document';
import type { QuotaDataParams } from './quota-data.dto';

/** One-api and new-api cap a user's own dashboard at one month. */
export const SELF_MAX_SPAN = 30 * 24 * 3600;

export type QuotaDataScope =
  { readonly kind: 'all' } | { readonly kind: 'self'; readonly userId: number };

export class QuotaDataQuery extends Query<QuotaDataRowDto[]> {
  constructor(
    readonly scope: QuotaDataScope,
    readonly params: QuotaDataParams,
    readonly now: number = Math.floor(Date.now() / 1000),
  ) {
    super();
  }
}

/**
 * Admin without a username: totals per model × hour over everyone; with a username, or for oneself:
 * that user's rows. Defaults to the last 30 days.
 */
@QueryHandler(QuotaDataQuery)
export class QuotaDataHandler implements IQueryHandler<QuotaDataQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ scope, params, now }: QuotaDataQuery): Promise<QuotaDataRowDto[]> {
    const end = params.end_timestamp ?? now;
    const start = params.start_timestamp ?? end - SELF_MAX_SPAN;
    if (scope.kind === 'self' && end - start > SELF_MAX_SPAN)
      throw new ApiError('data.span_too_long');
    const filter: Filter = { created_at: { $gte: start, $lte: end } };
    const username = params.username?.trim();
    if (scope.kind === 'all' && !username) {
      // Pre-summed over every user: at most models × hours rows, whatever the number of users.
      const totals = await this.readStore
        .collection<QuotaDataTotalDocument>(QUOTA_DATA_TOTAL)
        .find(filter, { sort: { created_at: 1 } });
      return totals.map(({ _id: _ignored, ...row }) => row);
    }
    if (scope.kind === 'self') filter['user_id'] = scope.userId;
    else filter['username'] = username;
    const rows = await this.readStore
      .collection<QuotaDataDocument>(QUOTA_DATA)
      .find(filter, { sort: { created_at: 1 } });
    return rows.map(({ _id: _ignored, ...row }) => row);
  }
}
