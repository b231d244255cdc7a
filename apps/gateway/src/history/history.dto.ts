import { IsInt, Max, Min } from 'class-validator';
import type { ActorHistoryQuery, HistoryQuery } from '@tollgate/contracts';
import { Optional, ToInt } from '../shared/dto-fields';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/** `p` (1-based), `page_size`, and an optional time range (unix seconds) of every history route. */
export class HistoryParams implements HistoryQuery {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @Optional() @ToInt() @IsInt() @Min(1) @Max(100) page_size?: number;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) start_timestamp?: number;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) end_timestamp?: number;
}

/** `GET /api/history`: everything one user (an admin) did, in a time range. */
export class ActorHistoryParams extends HistoryParams implements ActorHistoryQuery {
  @ToInt() @IsInt() @Min(1) @Max(MAX_INT) actor_id!: number;
}

/** `…/quota_at?timestamp=` (unix seconds), plus the paging of the changes that led there. */
export class QuotaAtParams extends HistoryParams {
  @ToInt() @IsInt() @Min(0) @Max(MAX_INT) timestamp!: number;
}
