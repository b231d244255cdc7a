import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import type { MidjourneyQuery, TaskQuery } from '@tollgate/contracts';
import { Optional, ToInt } from '../../shared/dto-fields';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/**
 * GET /api/mj/self: the drawing log's own rows. `p` is new-api's 0-based page (a negative page is
 * the first); the timestamps are milliseconds, 0 = no bound.
 */
export class OwnMidjourneyQueryParams implements MidjourneyQuery {
  @Optional() @ToInt() @IsInt() @Min(-MAX_INT) @Max(MAX_INT) p?: number;
  @Optional() @IsString() @MaxLength(100) mj_id?: string;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) start_timestamp?: number;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) end_timestamp?: number;
}

/** GET /api/mj/ (admin): also by channel. */
export class MidjourneyQueryParams extends OwnMidjourneyQueryParams {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) channel_id?: number;
}

/** GET /api/task/self: the task log's own rows; the timestamps are seconds, 0 = no bound. */
export class OwnTaskQueryParams implements TaskQuery {
  @Optional() @ToInt() @IsInt() @Min(-MAX_INT) @Max(MAX_INT) p?: number;
  @Optional() @IsString() @MaxLength(32) platform?: string;
  @Optional() @IsString() @MaxLength(100) task_id?: string;
  @Optional() @IsString() @MaxLength(32) status?: string;
  @Optional() @IsString() @MaxLength(32) action?: string;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) start_timestamp?: number;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) end_timestamp?: number;
}

/** GET /api/task/ (admin): also by channel (new-api's controller ignores it; the console sends it). */
export class TaskQueryParams extends OwnTaskQueryParams {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) channel_id?: number;
}
