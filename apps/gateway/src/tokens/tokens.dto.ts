import { IsBoolean, IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  MAX_TOKEN_BATCH,
  MAX_TOKEN_PAGE_SIZE,
  TokenStatus,
  type CreateTokenRequest,
  type UpdateTokenRequest,
  type UpdateTokenStatusRequest,
  type BudgetPeriodName,
} from '@tollgate/contracts';
import { BUDGET_PERIODS } from '@tollgate/domain';
import { Optional, ToBool, ToInt } from '../shared/dto-fields';

const MAX_INT = Number.MAX_SAFE_INTEGER;

export class TokenFieldsBody {
  @IsString() @MaxLength(200) name!: string;
  @Optional() @IsInt() @Min(-1) @Max(MAX_INT) expired_time?: number;
  @Optional() @IsInt() @Min(0) @Max(MAX_INT) remain_quota?: number;
  @Optional() @IsBoolean() unlimited_quota?: boolean;
  @Optional() @IsBoolean() model_limits_enabled?: boolean;
  @Optional() @IsString() @MaxLength(10000) model_limits?: string;
  @Optional() @IsString() @MaxLength(10000) allow_ips?: string;
  @Optional() @IsString() @MaxLength(64) group?: string;
  @Optional() @IsInt() @Min(0) @Max(MAX_INT) rate_limit_rpm?: number;
  @Optional() @IsInt() @Min(0) @Max(MAX_INT) rate_limit_tpm?: number;
  @Optional() @IsInt() @Min(0) @Max(MAX_INT) rate_limit_concurrency?: number;
  /** The budget (docs/budgets.md): both or neither, checked by the decider (budget.incomplete). */
  @Optional() @IsInt() @Min(0) @Max(MAX_INT) period_quota?: number;
  @Optional() @IsIn(['', ...BUDGET_PERIODS]) period?: BudgetPeriodName;
  /** false = this token's clients never get a fallback model (absent or null: they may). */
  @Optional() @IsBoolean() model_fallback?: boolean;
}

export class CreateTokenBody extends TokenFieldsBody implements CreateTokenRequest {
  @Optional() @IsInt() @Min(1) @Max(MAX_TOKEN_BATCH) count?: number;
}

/**
 * PUT /api/token/: a full update ({@link UpdateTokenRequest}) or, with ?status_only=true, a status
 * toggle ({@link UpdateTokenStatusRequest}). One class because the query decides which.
 */
export class UpdateTokenBody
  extends TokenFieldsBody
  implements Omit<UpdateTokenRequest, 'name'>, Partial<UpdateTokenStatusRequest>
{
  @ToInt() @IsInt() @Min(1) @Max(MAX_INT) id!: number;
  @Optional() @IsString() @MaxLength(200) declare name: string;
  @Optional() @IsIn([TokenStatus.Enabled, TokenStatus.Disabled]) status?: 1 | 2;
}

/** PUT /api/token/?status_only=true */
export class StatusOnlyQuery {
  @Optional()
  @ToBool()
  @IsBoolean()
  status_only?: boolean;
}

export class TokenListQuery {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @Optional() @ToInt() @IsInt() @Min(1) @Max(MAX_TOKEN_PAGE_SIZE) size?: number;
}

export class TokenSearchQueryParams extends TokenListQuery {
  @Optional() @IsString() @MaxLength(200) keyword?: string;
  @Optional() @IsString() @MaxLength(200) token?: string;
}
