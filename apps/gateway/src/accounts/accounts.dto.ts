import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import type { AffTransferRequest, RegisterRequest, UpdateSelfRequest } from '@tollgate/contracts';
import { Optional, ToInt } from '../shared/dto-fields';

export class RegisterBody implements RegisterRequest {
  @IsString() @MaxLength(100) username!: string;
  @IsString() @MaxLength(100) password!: string;
  @Optional() @IsString() @MaxLength(100) password2?: string;
  @Optional() @IsString() @MaxLength(254) email?: string;
  @Optional() @IsString() @MaxLength(32) verification_code?: string;
  @Optional() @IsString() @MaxLength(32) aff_code?: string;
}

export class LoginBody {
  @Optional() @IsString() @MaxLength(100) username?: string;
  @Optional() @IsString() @MaxLength(100) password?: string;
}

export class UpdateSelfBody implements UpdateSelfRequest {
  @Optional() @IsString() @MaxLength(100) display_name?: string;
  @Optional() @IsString() @MaxLength(100) password?: string;
  @Optional() @IsString() @MaxLength(100) original_password?: string;
}

export class AffTransferBody implements AffTransferRequest {
  @ToInt() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) quota!: number;
}
