import type { BudgetPeriodName, UserDto } from '@tollgate/contracts';

/** The budget as stored (absent on rows written before budgets: none); its use is computed on reads. */
type StoredBudget = { period_quota?: number; period?: BudgetPeriodName };

/** The `users` read model: the API's UserDto plus what lookups need (never returned as is). */
export interface UserDocument
  extends
    Omit<UserDto, 'period_quota' | 'period' | 'period_used' | 'period_reset_at'>,
    StoredBudget {
  _id: string;
  username_lower: string;
  password_hash: string;
  /** Only a verified email may be used to sign in (another account could have typed it first). */
  email_verified: boolean;
  access_token_hash: string;
  /**
   * Sessions issued before this instant (ms) are void: a password change, reset, disable, demotion
   * or deregistration signs the user out everywhere.
   */
  sessions_valid_after: number;
  /** Registered, grants not all written yet: start-up recovery finishes it. */
  registration_pending: boolean;
  /** Sessions ended by logout that have not expired yet (bounded, oldest dropped first). */
  revoked_sessions: RevokedSession[];
  /** `$all` commit position of the last event applied (idempotent writes without transactions). */
  source_position: number;
}

export interface RevokedSession {
  id: string;
  issued_at: number;
}

export const USERS = 'users';

export function toUserDto(doc: UserDocument): UserDto {
  const {
    _id: _ignoredId,
    username_lower: _lower,
    password_hash: _hash,
    email_verified: _verified,
    registration_pending: _pending,
    access_token_hash: _token,
    sessions_valid_after: _validAfter,
    revoked_sessions: _revoked,
    source_position: _position,
    period_quota,
    period,
    ...dto
  } = doc;
  // The budget's use of the current period is filled in by the reads that show it (BudgetUsage).
  return {
    ...dto,
    period_quota: period ? (period_quota ?? 0) : 0,
    period: period ?? '',
    period_used: 0,
    period_reset_at: 0,
  };
}
