import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { LogQuery } from '@tollgate/contracts';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/** GET /api/log/ (admin); /api/log/self/ ignores username and channel. */
export class LogQueryParams implements LogQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) page_size?: number;
  @IsOptional() @Type(() => Number) @IsIn([0, 1, 2, 3, 4]) type?: 0 | 1 | 2 | 3 | 4;
  @IsOptional() @IsString() @MaxLength(100) username?: string;
  @IsOptional() @IsString() @MaxLength(100) token_name?: string;
  @IsOptional() @IsString() @MaxLength(200) model_name?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT) start_timestamp?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT) end_timestamp?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT) channel?: number;
}

export class ClearLogsQuery {
  @Type(() => Number) @IsInt() @Min(1) @Max(MAX_INT) target_timestamp!: number;
}
