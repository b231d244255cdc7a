import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { BUDGET_PERIODS } from '@tollgate/domain';
import type {
  BudgetPeriodName,
  CreateUserRequest,
  ManageAction,
  ManageUserRequest,
  UpdateUserRequest,
} from '@tollgate/contracts';
import { Optional, ToInt } from '../shared/dto-fields';

export class CreateUserBody implements CreateUserRequest {
  @IsString() @MaxLength(100) username!: string;
  @Optional() @IsString() @MaxLength(100) display_name?: string;
  @IsString() @MaxLength(100) password!: string;
}

export class UpdateUserBody implements UpdateUserRequest {
  @ToInt() @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) id!: number;
  @Optional() @IsString() @MaxLength(100) username?: string;
  @Optional() @IsString() @MaxLength(100) display_name?: string;
  @Optional() @IsString() @MaxLength(100) password?: string;
  @Optional() @IsString() @MaxLength(64) group?: string;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) quota?: number;
  @Optional()
  @ToInt()
  @IsInt()
  @Min(Number.MIN_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  expected_quota?: number;
  @Optional() @IsString() @MaxLength(255) remark?: string;
  /** The user's budget (docs/budgets.md): both or neither (budget.incomplete). */
  @Optional() @ToInt() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) period_quota?: number;
  @Optional() @IsIn(['', ...BUDGET_PERIODS]) period?: BudgetPeriodName;
}

export const MANAGE_ACTIONS: readonly ManageAction[] = [
  'promote',
  'demote',
  'enable',
  'disable',
  'delete',
];

export class ManageUserBody implements ManageUserRequest {
  @ToInt() @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) id!: number;
  @IsIn(MANAGE_ACTIONS) action!: ManageAction;
}

/** Far beyond any real list; bounds the SQL offset. */
const MAX_PAGE = 1_000_000;

/** ?p=&page_size= (1-based) plus the search filters. */
export class UserListQuery {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_PAGE) p?: number;
  @Optional() @ToInt() @IsInt() @Min(1) @Max(100) page_size?: number;
  @Optional() @IsString() @MaxLength(100) keyword?: string;
  @Optional() @IsString() @MaxLength(64) group?: string;
}
