import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional, ToInt } from '../shared/dto-fields';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/** GET /api/data/ (admin, optional username) and /api/data/self. */
export class QuotaDataParams {
  @Optional() @IsString() @MaxLength(100) username?: string;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) start_timestamp?: number;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) end_timestamp?: number;
}
