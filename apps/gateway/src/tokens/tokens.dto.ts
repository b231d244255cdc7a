import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  MAX_TOKEN_BATCH,
  MAX_TOKEN_PAGE_SIZE,
  type CreateTokenRequest,
  type UpdateTokenRequest,
  type UpdateTokenStatusRequest,
} from '@tollgate/contracts';

const MAX_INT = Number.MAX_SAFE_INTEGER;

export class TokenFieldsBody {
  @IsString() @MaxLength(200) name!: string;
  @IsOptional() @IsInt() @Min(-1) @Max(MAX_INT) expired_time?: number;
  @IsOptional() @IsInt() @Min(0) @Max(MAX_INT) remain_quota?: number;
  @IsOptional() @IsBoolean() unlimited_quota?: boolean;
  @IsOptional() @IsBoolean() model_limits_enabled?: boolean;
  @IsOptional() @IsString() @MaxLength(10000) model_limits?: string;
  @IsOptional() @IsString() @MaxLength(10000) allow_ips?: string;
  @IsOptional() @IsString() @MaxLength(64) group?: string;
  @IsOptional() @IsInt() @Min(0) @Max(MAX_INT) rate_limit_rpm?: number;
  @IsOptional() @IsInt() @Min(0) @Max(MAX_INT) rate_limit_tpm?: number;
  @IsOptional() @IsInt() @Min(0) @Max(MAX_INT) rate_limit_concurrency?: number;
}

export class CreateTokenBody extends TokenFieldsBody implements CreateTokenRequest {
  @IsOptional() @IsInt() @Min(1) @Max(MAX_TOKEN_BATCH) count?: number;
}

/**
 * PUT /api/token/: a full update ({@link UpdateTokenRequest}) or, with ?status_only=true, a status
 * toggle ({@link UpdateTokenStatusRequest}). One class because the query decides which.
 */
export class UpdateTokenBody
  extends TokenFieldsBody
  implements Omit<UpdateTokenRequest, 'name'>, Partial<UpdateTokenStatusRequest>
{
  @IsInt() @Min(1) @Max(MAX_INT) id!: number;
  @IsOptional() @IsString() @MaxLength(200) declare name: string;
  @IsOptional() @IsIn([1, 2]) status?: 1 | 2;
}

/** PUT /api/token/?status_only=true */
export class StatusOnlyQuery {
  @IsOptional()
  @Transform(({ value }) => value === 'true' || value === true)
  @IsBoolean()
  status_only?: boolean;
}

export class TokenListQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(MAX_TOKEN_PAGE_SIZE) size?: number;
}

export class TokenSearchQueryParams extends TokenListQuery {
  @IsOptional() @IsString() @MaxLength(200) keyword?: string;
  @IsOptional() @IsString() @MaxLength(200) token?: string;
}
