import type { BudgetPeriodName } from './token.dto';
/** A user as the console API returns it (never with the password). */
export interface UserDto {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  /** The bound OpenID Connect subject; '' when never bound. */
  oidc_id: string;
  /** The bound LinuxDO account id; '' when never bound. */
  linux_do_id: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  remark: string;
  /** The user's own settings as JSON text (new-api's `setting`); '' until any is saved. */
  setting: string;
  created_at: number;
  /** Non-null (ISO time) when the user deregistered or was deleted. */
  DeletedAt: string | null;
  /** Periodic budget (docs/budgets.md): quota units per `period`; 0 = none. */
  period_quota: number;
  /** '' (none), 'day', 'week' or 'month', in the server's time zone. */
  period: BudgetPeriodName;
  /** Spent in the current period (0 without a budget). */
  period_used: number;
  /** Unix seconds when the current period ends; 0 without a budget. */
  period_reset_at: number;
}

/** POST /api/user/login data. */
export interface LoginResultDto {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
  /** True when the account still uses the bootstrap password (root / 123456). */
  default_password: boolean;
}

export interface RegisterRequest {
  username: string;
  password: string;
  password2?: string;
  email?: string;
  verification_code?: string;
  aff_code?: string;
}

export interface CreateUserRequest {
  username: string;
  display_name?: string;
  password: string;
}

export interface UpdateUserRequest {
  id: number;
  username?: string;
  display_name?: string;
  password?: string;
  group?: string;
  /** The new balance. */
  quota?: number;
  /**
   * The balance the console showed when the admin typed `quota`. When sent, the edit is refused
   * if the balance moved in between (charges or credits meanwhile). Old clients omit it.
   */
  expected_quota?: number;
  remark?: string;
  /** The user's periodic budget (0 = none; needs `period`): a BudgetSet with the admin as actor. */
  period_quota?: number;
  period?: BudgetPeriodName;
}

export interface UpdateSelfRequest {
  display_name?: string;
  /** New password; needs original_password, except within ten minutes of signing in. */
  password?: string;
  original_password?: string;
}

/** A group the user may pick (GET /api/user/self/groups, /api/user/groups): its ratio and label. */
export interface UserGroupDto {
  ratio: number;
  desc: string;
}

export type ManageAction = 'promote' | 'demote' | 'enable' | 'disable' | 'delete';

export interface ManageUserRequest {
  id: number;
  action: ManageAction;
}

export interface ManageUserResultDto {
  role: number;
  status: number;
}

export interface AffTransferRequest {
  quota: number;
}
