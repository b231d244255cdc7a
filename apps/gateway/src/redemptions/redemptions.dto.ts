import { IsBoolean, IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  MAX_REDEMPTION_BATCH,
  RedemptionStatus,
  type CreateRedemptionRequest,
  type TopUpRequest,
  type UpdateRedemptionRequest,
  type UpdateRedemptionStatusRequest,
} from '@tollgate/contracts';
import { Optional, ToBool, ToInt } from '../shared/dto-fields';

const MAX_INT = Number.MAX_SAFE_INTEGER;

export class CreateRedemptionBody implements CreateRedemptionRequest {
  @IsString() @MaxLength(200) name!: string;
  @IsInt() @Min(1) @Max(MAX_INT) quota!: number;
  @Optional() @IsInt() @Min(1) @Max(MAX_REDEMPTION_BATCH) count?: number;
}

/** PUT /api/redemption/: fields, or with ?status_only=true only id + status. */
export class UpdateRedemptionBody
  implements Partial<UpdateRedemptionRequest>, Partial<UpdateRedemptionStatusRequest>
{
  @ToInt() @IsInt() @Min(1) @Max(MAX_INT) id!: number;
  @Optional() @IsString() @MaxLength(200) name?: string;
  @Optional() @IsInt() @Min(1) @Max(MAX_INT) quota?: number;
  @Optional() @IsIn([RedemptionStatus.Unused, RedemptionStatus.Disabled]) status?: 1 | 2;
}

export class RedemptionStatusOnlyQuery {
  @Optional()
  @ToBool()
  @IsBoolean()
  status_only?: boolean;
}

export class RedemptionListQuery {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @Optional() @ToInt() @IsInt() @Min(1) @Max(100) page_size?: number;
  @Optional() @IsString() @MaxLength(200) keyword?: string;
}

export class TopUpBody implements TopUpRequest {
  @IsString() @MaxLength(200) key!: string;
}
