import type { PageOf } from './envelope';

/** Who made a change. A user's own history shows other users (admins) by role only. */
export type HistoryActorDto =
  | { kind: 'user'; id: number; username: string; role: number }
  | { kind: 'user'; role: number }
  | { kind: 'system'; reason: string }
  | { kind: 'anonymous' };

/**
 * One field's change. Secrets (password hashes, sealed keys, secret options) are never shown:
 * `before` null, `after` "changed", `secret` true. Balance changes carry `delta` (before/after are
 * null when the event records only the amount, e.g. a grant).
 */
export interface HistoryChangeDto {
  field: string;
  before: unknown;
  after: unknown;
  delta?: number;
  secret?: true;
}

/** The entity a change belongs to (`option`, `logs` and `routing` have id 0). */
export type HistoryEntityKind =
  'user' | 'token' | 'channel' | 'redemption' | 'option' | 'logs' | 'routing';

export interface HistoryItemDto {
  /** Unix seconds (the event's occurredAt). */
  time: number;
  /** The event type, e.g. UserRoleChanged; unknown types are listed with no changes. */
  type: string;
  entity: { kind: HistoryEntityKind; id: number };
  actor: HistoryActorDto;
  changes: HistoryChangeDto[];
  /** Why, when the event says (grant reason, status reason, password change reason…), else ''. */
  reason: string;
  request_id: string;
  /** '' when hidden (a user's own history does not show an admin's address). */
  ip: string;
}

/** `GET /api/user/:id/history`, `/api/token/:id/history`, … and `GET /api/history` (by actor). */
export interface HistoryQuery {
  p?: number;
  page_size?: number;
  start_timestamp?: number;
  end_timestamp?: number;
}

export interface ActorHistoryQuery extends HistoryQuery {
  actor_id: number;
}

/** `GET /api/user/:id/quota_at?timestamp=` (and `/api/user/self/quota_at`). */
export interface UserQuotaAtDto {
  timestamp: number;
  /**
   * When the user came from a one-api/new-api import: the instant (unix seconds) its recorded
   * history begins. Before it the figures are not known, and are null (never a made-up 0).
   */
  history_begins_at: number | null;
  /** Balance at that instant: credits − consumption. */
  quota: number | null;
  used_quota: number | null;
  request_count: number | null;
  /** Σ balance credits (grants, admin deltas, aff transfers) up to that instant. */
  credited: number | null;
  /** The balance changes (not the per-request consumption) up to that instant, newest first. */
  changes: PageOf<HistoryItemDto>;
}

/** `GET /api/token/:id/quota_at?timestamp=`. */
export interface TokenQuotaAtDto {
  timestamp: number;
  /** false: the token did not exist yet at that instant (the numbers are then 0). */
  existed: boolean;
  /**
   * When the token came from a one-api/new-api import: the instant its recorded history begins.
   * Before it `existed` is true and the figures are null: it existed, its balance is not known.
   */
  history_begins_at: number | null;
  remain_quota: number | null;
  used_quota: number | null;
  unlimited_quota: boolean | null;
}

export interface LedgerMismatchDto {
  kind: 'user' | 'token' | 'channel';
  id: number;
  name: string;
  field: string;
  /** What the events sum to. */
  expected: number;
  actual: number | null;
  source: 'read_model' | 'balance_book';
  /** Streams whose events make up `expected`, and how many events. */
  streams: string[];
  events: number;
}

/** `GET /api/ledger/verify` (root) and `npm run ledger:verify`. */
export interface LedgerReportDto {
  ok: boolean;
  /** Events scanned and the `$all` position reached. */
  events: number;
  position: string | null;
  checked: { users: number; tokens: number; channels: number };
  /** Documents that moved past the scanned position meanwhile (live run): compared next time. */
  skipped: number;
  mismatches: LedgerMismatchDto[];
  duration_ms: number;
}
