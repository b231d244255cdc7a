import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  TOPUP_STATUSES,
  type CompleteTopUpRequest,
  type EpayPayRequest,
  type TopUpAmountRequest,
  type TopUpStatusValue,
} from '@tollgate/contracts';
import { Optional, ToInt } from '../shared/dto-fields';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/** The amount's own rules (positive, MinTopUp, the maximum) answer in the domain's words. */
export class TopUpAmountBody implements TopUpAmountRequest {
  @IsInt() @Min(-MAX_INT) @Max(MAX_INT) amount!: number;
}

export class EpayPayBody implements EpayPayRequest {
  @IsInt() @Min(-MAX_INT) @Max(MAX_INT) amount!: number;
  @IsString() @MaxLength(64) payment_method!: string;
}

export class CompleteTopUpBody implements CompleteTopUpRequest {
  @IsString() @MaxLength(128) trade_no!: string;
}

export class OwnTopUpListQuery {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @Optional() @ToInt() @IsInt() @Min(1) @Max(100) page_size?: number;
  @Optional() @IsString() @MaxLength(200) keyword?: string;
  @Optional() @IsIn(TOPUP_STATUSES) status?: TopUpStatusValue;
}

export class TopUpListQuery extends OwnTopUpListQuery {
  @Optional() @ToInt() @IsInt() @Min(1) @Max(MAX_INT) user_id?: number;
}
