import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { FailureRateDto } from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { CHANNELS, type ChannelDocument } from '../channels/channel.document';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { ApiError } from '../shared/api-error';
import {
  CHANNEL_OUTCOMES,
  MODEL_OUTCOMES,
  type ChannelOutcomesDocument,
  type ModelOutcomesDocument,
} from './call-outcomes.document';
import { SELF_MAX_SPAN, type QuotaDataScope } from './quota-data.handler';
import type { QuotaDataParams } from './quota-data.dto';

/** The rows with the most calls are shown; the rest of a long tail is left out. */
export const FAILURE_RATE_ROWS = 50;

export class FailureRatesQuery extends Query<FailureRateDto[]> {
  constructor(
    readonly scope: QuotaDataScope,
    readonly params: Pick<QuotaDataParams, 'start_timestamp' | 'end_timestamp'>,
    readonly now: number = Math.floor(Date.now() / 1000),
  ) {
    super();
  }
}

interface Counted {
  readonly calls: number;
  readonly failed: number;
}

/** Sums the hourly rows per key; the rows with the most calls first. */
function summed<T extends Counted>(
  rows: readonly T[],
  keyOf: (row: T) => string,
): Array<Counted & { key: string }> {
  const sums = new Map<string, { key: string; calls: number; failed: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const sum = sums.get(key) ?? { key, calls: 0, failed: 0 };
    sum.calls += row.calls;
    sum.failed += row.failed;
    sums.set(key, sum);
  }
  return [...sums.values()]
    .sort((a, b) => b.calls - a.calls || a.key.localeCompare(b.key))
    .slice(0, FAILURE_RATE_ROWS);
}

/**
 * The dashboard's failure rates over a range (default: the last 30 days): admins per channel (its
 * present name), a user per model of their own calls (a span over 30 days refused, as the rows).
 */
@QueryHandler(FailureRatesQuery)
export class FailureRatesHandler implements IQueryHandler<FailureRatesQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ scope, params, now }: FailureRatesQuery): Promise<FailureRateDto[]> {
    const end = params.end_timestamp ?? now;
    const start = params.start_timestamp ?? end - SELF_MAX_SPAN;
    if (scope.kind === 'self' && end - start > SELF_MAX_SPAN)
      throw new ApiError('data.span_too_long');
    const filter: Filter = { created_at: { $gte: start - (start % 3600), $lte: end } };
    if (scope.kind === 'self') {
      filter['user_id'] = scope.userId;
      const rows = await this.readStore
        .collection<ModelOutcomesDocument>(MODEL_OUTCOMES)
        .find(filter);
      return summed(rows, (row) => row.model_name).map((sum) => ({ ...sum, channel_id: 0 }));
    }
    const rows = await this.readStore
      .collection<ChannelOutcomesDocument>(CHANNEL_OUTCOMES)
      .find(filter);
    const sums = summed(rows, (row) => String(row.channel_id));
    const ids = sums.map((sum) => Number(sum.key));
    const channels = await this.readStore
      .collection<ChannelDocument>(CHANNELS)
      .find({ id: { $in: ids } });
    const names = new Map(channels.map((c) => [c.id, c.name]));
    return sums.map((sum) => ({
      key: names.get(Number(sum.key)) ?? `#${sum.key}`,
      channel_id: Number(sum.key),
      calls: sum.calls,
      failed: sum.failed,
    }));
  }
}
