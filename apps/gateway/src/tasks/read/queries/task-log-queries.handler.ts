import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { TASK_PAGE_SIZE, type MidjourneyRow, type TaskRow } from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../../infrastructure/injection-tokens';
import { OptionsCache } from '../../../options/options.cache';
import { shownImageUrl } from '../task-image-url';
import type { MidjourneyQueryParams, TaskQueryParams } from '../task-log.dto';
import {
  MIDJOURNEYS,
  SUNO_TASKS,
  toMidjourneyRow,
  toTaskRow,
  type MidjourneyDocument,
  type SunoTaskDocument,
} from '../task-log.documents';

/** Whose tasks: `self` = one user's own (without channel_id), otherwise everyone's (admins). */
export type TaskLogScope =
  { readonly kind: 'all' } | { readonly kind: 'self'; readonly userId: number };

/** The drawing log: 10 rows a page, newest first, a bare array (new-api has no total). */
export class ListMidjourneyTasksQuery extends Query<MidjourneyRow[]> {
  constructor(
    readonly scope: TaskLogScope,
    readonly params: MidjourneyQueryParams,
  ) {
    super();
  }
}

/** The task log (Suno): 10 rows a page, newest first, a bare array. */
export class ListSunoTasksQuery extends Query<TaskRow[]> {
  constructor(
    readonly scope: TaskLogScope,
    readonly params: TaskQueryParams,
  ) {
    super();
  }
}

/** Owner, channel (admins only) and submit_time range (0 = no bound), in the caller's unit. */
function commonFilter(
  scope: TaskLogScope,
  params: { channel_id?: number; start_timestamp?: number; end_timestamp?: number },
): Filter {
  const filter: Filter = {};
  if (scope.kind === 'self') filter['user_id'] = scope.userId;
  else if (params.channel_id) filter['channel_id'] = params.channel_id;
  const range: Record<string, number> = {};
  if (params.start_timestamp) range['$gte'] = params.start_timestamp;
  if (params.end_timestamp) range['$lte'] = params.end_timestamp;
  if (Object.keys(range).length > 0) filter['submit_time'] = range;
  return filter;
}

/** new-api's `p`: 0-based, a negative page is the first. */
const pageOf = (p: number | undefined) => ({
  sort: { id: -1 } as const,
  skip: Math.max(0, p ?? 0) * TASK_PAGE_SIZE,
  limit: TASK_PAGE_SIZE,
});

/** A text filter as new-api applies it: exact, skipped when empty. */
function exact(filter: Filter, field: string, value: string | undefined): void {
  if (value !== undefined && value !== '') filter[field] = value;
}

@QueryHandler(ListMidjourneyTasksQuery)
export class ListMidjourneyTasksHandler implements IQueryHandler<ListMidjourneyTasksQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly options: OptionsCache,
  ) {}

  async execute({ scope, params }: ListMidjourneyTasksQuery): Promise<MidjourneyRow[]> {
    const filter = commonFilter(scope, params);
    exact(filter, 'mj_id', params.mj_id);
    const docs = await this.readStore
      .collection<MidjourneyDocument>(MIDJOURNEYS)
      .find(filter, pageOf(params.p));
    return docs.map((doc) => ({
      ...toMidjourneyRow(doc, scope.kind === 'all'),
      image_url: shownImageUrl(this.options, doc.mj_id, doc.image_url),
    }));
  }
}

@QueryHandler(ListSunoTasksQuery)
export class ListSunoTasksHandler implements IQueryHandler<ListSunoTasksQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ scope, params }: ListSunoTasksQuery): Promise<TaskRow[]> {
    const filter = commonFilter(scope, params);
    exact(filter, 'platform', params.platform);
    exact(filter, 'task_id', params.task_id);
    exact(filter, 'status', params.status);
    exact(filter, 'action', params.action);
    const docs = await this.readStore
      .collection<SunoTaskDocument>(SUNO_TASKS)
      .find(filter, pageOf(params.p));
    return docs.map((doc) => toTaskRow(doc, scope.kind === 'all'));
  }
}
