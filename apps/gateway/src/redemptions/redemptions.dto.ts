import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  MAX_REDEMPTION_BATCH,
  type CreateRedemptionRequest,
  type TopUpRequest,
  type UpdateRedemptionRequest,
  type UpdateRedemptionStatusRequest,
} from '@tollgate/contracts';

const MAX_INT = Number.MAX_SAFE_INTEGER;

export class CreateRedemptionBody implements CreateRedemptionRequest {
  @IsString() @MaxLength(200) name!: string;
  @IsInt() @Min(1) @Max(MAX_INT) quota!: number;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_REDEMPTION_BATCH) count?: number;
}

/** PUT /api/redemption/: fields, or with ?status_only=true only id + status. */
export class UpdateRedemptionBody
  implements Partial<UpdateRedemptionRequest>, Partial<UpdateRedemptionStatusRequest>
{
  @IsInt() @Min(1) @Max(MAX_INT) id!: number;
  @IsOptional() @IsString() @MaxLength(200) name?: string;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_INT) quota?: number;
  @IsOptional() @IsIn([1, 2]) status?: 1 | 2;
}

export class RedemptionStatusOnlyQuery {
  @IsOptional()
  @Transform(({ value }) => value === 'true' || value === true)
  @IsBoolean()
  status_only?: boolean;
}

export class RedemptionListQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) page_size?: number;
  @IsOptional() @IsString() @MaxLength(200) keyword?: string;
}

export class TopUpBody implements TopUpRequest {
  @IsString() @MaxLength(200) key!: string;
}
