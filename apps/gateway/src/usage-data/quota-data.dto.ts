import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/** GET /api/data/ (admin, optional username) and /api/data/self. */
export class QuotaDataParams {
  @IsOptional() @IsString() @MaxLength(100) username?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT) start_timestamp?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT) end_timestamp?: number;
}
