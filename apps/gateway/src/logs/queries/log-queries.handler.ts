import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DEFAULT_PAGE_SIZE, type LogPageDto, type LogStatDto, LogType } from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import type { LogQueryParams } from '../logs.dto';
import {
  ALL_TOTALS,
  LOG_RETENTION,
  LOG_TOTALS,
  REFUND_ROWS,
  RETAINED_FROM,
  userTotalsId,
  type LogRetentionDocument,
  type LogTotalsDocument,
} from '../log.document';
import { logStore } from '../log-store';
import { forAdmins, forSelf } from './log-views';

/** Whose rows: `self` = one user's own (no admin details), otherwise every row (admins). */
export type LogScope =
  { readonly kind: 'all' } | { readonly kind: 'self'; readonly userId: number };

export class ListLogsQuery extends Query<LogPageDto> {
  constructor(
    readonly scope: LogScope,
    readonly params: LogQueryParams,
  ) {
    super();
  }
}

export class LogStatQuery extends Query<LogStatDto> {
  constructor(
    readonly scope: LogScope,
    readonly params: LogQueryParams,
    readonly now: number = Math.floor(Date.now() / 1000),
  ) {
    super();
  }
}

const modelOf = (filter: Filter): Filter =>
  filter['model_name'] === undefined ? {} : { model_name: filter['model_name'] };

export function logFilter(scope: LogScope, params: LogQueryParams): Filter {
  const filter: Filter = {};
  if (scope.kind === 'self') filter['user_id'] = scope.userId;
  else {
    if (params.username?.trim()) filter['username'] = params.username.trim();
    if (params.channel) filter['channel'] = params.channel;
  }
  if (params.type) filter['type'] = params.type;
  if (params.token_name?.trim()) filter['token_name'] = params.token_name.trim();
  if (params.model_name?.trim()) filter['model_name'] = params.model_name.trim();
  if (params.group?.trim()) filter['group'] = params.group.trim();
  const range: Record<string, number> = {};
  if (params.start_timestamp) range['$gte'] = params.start_timestamp;
  if (params.end_timestamp) range['$lte'] = params.end_timestamp;
  if (Object.keys(range).length > 0) filter['created_at'] = range;
  return filter;
}

@QueryHandler(ListLogsQuery)
export class ListLogsHandler implements IQueryHandler<ListLogsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ scope, params }: ListLogsQuery): Promise<LogPageDto> {
    const size = params.page_size || DEFAULT_PAGE_SIZE;
    const page = Math.max(1, params.p ?? 1);
    const filter = logFilter(scope, params);
    const logs = logStore(this.readStore);
    const [docs, total, retention] = await Promise.all([
      logs.find(filter, { sort: { id: -1 }, skip: (page - 1) * size, limit: size }),
      logs.count(filter),
      this.readStore.collection<LogRetentionDocument>(LOG_RETENTION).get(RETAINED_FROM),
    ]);
    const items = scope.kind === 'self' ? docs.map(forSelf) : await forAdmins(this.readStore, docs);
    const answer: LogPageDto = { items, total, page, page_size: size };
    // Only once something was archived: the new-api answer is otherwise as it was.
    return retention ? { ...answer, retained_from: retention.at } : answer;
  }
}

@QueryHandler(LogStatQuery)
export class LogStatHandler implements IQueryHandler<LogStatQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  /**
   * quota: consumption in the filtered range less the task refunds in it (without a filter, the
   * projection's running total: one document instead of a sum over every row); rpm/tpm:
   * consumption rows of the last 60 s.
   */
  async execute({ scope, params, now }: LogStatQuery): Promise<LogStatDto> {
    const logs = logStore(this.readStore);
    const filter = logFilter(scope, { ...params, type: undefined });
    const consume: Filter = { ...filter, type: LogType.Consume };
    const unranged: Filter = { ...consume };
    delete unranged['created_at'];
    const unfiltered = Object.keys(filter).every((field) => field === 'user_id');
    const [quota, recent] = await Promise.all([
      unfiltered
        ? this.readStore
            .collection<LogTotalsDocument>(LOG_TOTALS)
            .get(scope.kind === 'self' ? userTotalsId(scope.userId) : ALL_TOTALS)
            .then((totals) => totals?.quota ?? 0)
        : Promise.all([
            logs.sum(consume, null, ['quota']),
            // Refund rows name their model: a model filter applies to them as it is.
            logs.sum({ ...filter, ...REFUND_ROWS, ...modelOf(filter) }, null, ['quota']),
          ]).then(
            ([charged, refunded]) =>
              (charged[0]?.sums['quota'] ?? 0) - (refunded[0]?.sums['quota'] ?? 0),
          ),
      logs.sum({ ...unranged, created_at: { $gte: now - 60 } }, null, [
        'prompt_tokens',
        'completion_tokens',
      ]),
    ]);
    const last = recent[0];
    return {
      quota,
      rpm: last?.count ?? 0,
      tpm: (last?.sums['prompt_tokens'] ?? 0) + (last?.sums['completion_tokens'] ?? 0),
    };
  }
}
