import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type {
  CreateUserRequest,
  ManageAction,
  ManageUserRequest,
  UpdateUserRequest,
} from '@tollgate/contracts';

export class CreateUserBody implements CreateUserRequest {
  @IsString() @MaxLength(100) username!: string;
  @IsOptional() @IsString() @MaxLength(100) display_name?: string;
  @IsString() @MaxLength(100) password!: string;
}

export class UpdateUserBody implements UpdateUserRequest {
  @Type(() => Number) @IsInt() @Min(1) id!: number;
  @IsOptional() @IsString() @MaxLength(100) username?: string;
  @IsOptional() @IsString() @MaxLength(100) display_name?: string;
  @IsOptional() @IsString() @MaxLength(100) password?: string;
  @IsOptional() @IsString() @MaxLength(64) group?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) quota?: number;
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(Number.MIN_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  expected_quota?: number;
  @IsOptional() @IsString() @MaxLength(255) remark?: string;
}

export const MANAGE_ACTIONS: readonly ManageAction[] = [
  'promote',
  'demote',
  'enable',
  'disable',
  'delete',
];

export class ManageUserBody implements ManageUserRequest {
  @Type(() => Number) @IsInt() @Min(1) id!: number;
  @IsIn(MANAGE_ACTIONS) action!: ManageAction;
}

/** ?p=&page_size= (1-based) plus the search filters. */
export class UserListQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) p?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) page_size?: number;
  @IsOptional() @IsString() @MaxLength(100) keyword?: string;
  @IsOptional() @IsString() @MaxLength(64) group?: string;
}
