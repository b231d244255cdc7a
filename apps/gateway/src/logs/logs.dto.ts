import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { LOG_TYPES, type LogQuery, type LogType } from '@tollgate/contracts';
import { Optional, ToInt } from '../shared/dto-fields';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/** GET /api/log/ (admin); /api/log/self/ ignores username and channel. */
export class LogQueryParams implements LogQuery {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @Optional() @ToInt() @IsInt() @Min(1) @Max(100) page_size?: number;
  @Optional() @ToInt() @IsIn(LOG_TYPES) type?: LogType;
  @Optional() @IsString() @MaxLength(100) username?: string;
  @Optional() @IsString() @MaxLength(100) token_name?: string;
  @Optional() @IsString() @MaxLength(200) model_name?: string;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) start_timestamp?: number;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) end_timestamp?: number;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) channel?: number;
  @Optional() @IsString() @MaxLength(64) group?: string;
}

/** GET /api/log/self/search?keyword= (new-api caps the keyword at 128 characters). */
export class LogSearchParams {
  @Optional() @IsString() @MaxLength(128) keyword?: string;
}

/** GET /api/log/token?key=sk-… (or the key in Authorization, as new-api reads it now). */
export class TokenLogParams {
  @Optional() @IsString() @MaxLength(200) key?: string;
}

export class ClearLogsQuery {
  @ToInt() @IsInt() @Min(1) @Max(MAX_INT) target_timestamp!: number;
}
