import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import type { AffTransferRequest, RegisterRequest, UpdateSelfRequest } from '@tollgate/contracts';

export class RegisterBody implements RegisterRequest {
  @IsString() @MaxLength(100) username!: string;
  @IsString() @MaxLength(100) password!: string;
  @IsOptional() @IsString() @MaxLength(100) password2?: string;
  @IsOptional() @IsString() @MaxLength(254) email?: string;
  @IsOptional() @IsString() @MaxLength(32) verification_code?: string;
  @IsOptional() @IsString() @MaxLength(32) aff_code?: string;
}

export class LoginBody {
  @IsOptional() @IsString() @MaxLength(100) username?: string;
  @IsOptional() @IsString() @MaxLength(100) password?: string;
}

export class UpdateSelfBody implements UpdateSelfRequest {
  @IsOptional() @IsString() @MaxLength(100) display_name?: string;
  @IsOptional() @IsString() @MaxLength(100) password?: string;
  @IsOptional() @IsString() @MaxLength(100) original_password?: string;
}

export class AffTransferBody implements AffTransferRequest {
  @Type(() => Number) @IsInt() @Min(0) quota!: number;
}
