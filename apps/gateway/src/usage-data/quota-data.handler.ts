import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { ApiError } from '../shared/api-error';
import { QUOTA_DATA, type QuotaDataDocument } from './quota-data.document';
import type { QuotaDataParams } from './quota-data.dto';

/** The anchors cap a user's own dashboard at one month. */
export const SELF_MAX_SPAN = 30 * 24 * 3600;

export type QuotaDataScope =
  { readonly kind: 'all' } | { readonly kind: 'self'; readonly userId: number };

export interface QuotaDataRow {
  user_id?: number;
  username?: string;
  model_name: string;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

export class QuotaDataQuery extends Query<QuotaDataRow[]> {
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

  async execute({ scope, params, now }: QuotaDataQuery): Promise<QuotaDataRow[]> {
    const end = params.end_timestamp ?? now;
    const start = params.start_timestamp ?? end - SELF_MAX_SPAN;
    if (scope.kind === 'self' && end - start > SELF_MAX_SPAN)
      throw new ApiError('data.span_too_long');
    const filter: Filter = { created_at: { $gte: start, $lte: end } };
    if (scope.kind === 'self') filter['user_id'] = scope.userId;
    else if (params.username?.trim()) filter['username'] = params.username.trim();
    const rows = await this.readStore
      .collection<QuotaDataDocument>(QUOTA_DATA)
      .find(filter, { sort: { created_at: 1 } });
    if (scope.kind === 'self' || filter['username'] !== undefined) {
      return rows.map(({ _id: _ignored, ...row }) => row);
    }
    const totals = new Map<string, QuotaDataRow>();
    for (const r of rows) {
      const key = `${r.model_name}\u0000${r.created_at}`;
      const total = totals.get(key) ?? {
        model_name: r.model_name,
        created_at: r.created_at,
        token_used: 0,
        count: 0,
        quota: 0,
      };
      total.token_used += r.token_used;
      total.count += r.count;
      total.quota += r.quota;
      totals.set(key, total);
    }
    return [...totals.values()];
  }
}
