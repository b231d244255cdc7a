/** Redemption codes (admin) on the wire. */
export const RedemptionStatus = {
  Unused: 1,
  Disabled: 2,
  Used: 3,
} as const;
export type RedemptionStatus = (typeof RedemptionStatus)[keyof typeof RedemptionStatus];
export const REDEMPTION_STATUSES: readonly number[] = Object.values(RedemptionStatus);

export const DEFAULT_REDEMPTION_QUOTA = 100000;
export const MAX_REDEMPTION_BATCH = 100;
export const REDEMPTION_NAME_MAX_LENGTH = 20;
export const REDEMPTION_KEY_LENGTH = 32;

/** One code as GET /api/redemption/ (items), /search and /{id} return it (admins only). */
export interface RedemptionDto {
  id: number;
  /** Creator (the admin who made it). */
  user_id: number;
  name: string;
  /** 32 characters. */
  key: string;
  status: RedemptionStatus;
  quota: number;
  created_time: number;
  /** Unix seconds; 0 = not redeemed. */
  redeemed_time: number;
  /** 0 = none. */
  used_user_id: number;
}

/** GET /api/redemption/?p=&page_size= → data: PageOf<RedemptionDto> (1-based p). */
/** GET /api/redemption/search?keyword=&p=&page_size= (keyword = id or name) → data: PageOf<RedemptionDto>. */

/** POST /api/redemption/ → data: string[] (the generated keys). */
export interface CreateRedemptionRequest {
  /** 1..20 characters. */
  name: string;
  /** Integer > 0. */
  quota: number;
  /** 1..100, default 1. */
  count?: number;
}

/** PUT /api/redemption/ (only while unused) → data: RedemptionDto. */
export interface UpdateRedemptionRequest {
  id: number;
  name: string;
  quota: number;
}

/** PUT /api/redemption/?status_only=true (unused ⇄ disabled) → data: RedemptionDto. */
export interface UpdateRedemptionStatusRequest {
  id: number;
  /** 1 unused or 2 disabled. */
  status: 1 | 2;
}

/** POST /api/user/topup → data: number (quota added). */
export interface TopUpRequest {
  key: string;
}
