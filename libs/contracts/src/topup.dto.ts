/** Online top-up orders (new-api's TopUp rows) and the Epay calls. */

/** An order's status, as new-api spells it. */
export const TopUpStatus = {
  Pending: 'pending',
  Success: 'success',
  Expired: 'expired',
  Failed: 'failed',
} as const;
export type TopUpStatusValue = (typeof TopUpStatus)[keyof typeof TopUpStatus];
export const TOPUP_STATUSES: readonly TopUpStatusValue[] = Object.values(TopUpStatus);

/** Who takes the money. */
export type TopUpProvider = 'epay' | 'stripe';

/** The largest amount (in top-up units, $1 each at the default QuotaPerUnit) one order may ask. */
export const TOPUP_MAX_AMOUNT = 1_000_000;

/** A row of GET /api/user/topup (admin) and GET /api/user/topup/self (own orders). */
export interface TopUpOrderDto {
  trade_no: string;
  user_id: number;
  /** Top-up units asked for (amount × QuotaPerUnit = quota credited). */
  amount: number;
  /** What the user pays: amount × Price × TopupGroupRatio, rounded to cents. */
  money: number;
  /** Quota credited (or to credit) in quota units. */
  quota: number;
  /** 'alipay', 'wxpay', … for Epay; 'stripe' for Stripe. */
  payment_method: string;
  provider: TopUpProvider;
  status: TopUpStatusValue;
  /** Unix seconds. */
  create_time: number;
  /** Unix seconds; 0 while not paid. */
  complete_time: number;
  /** The provider's reference (Epay trade_no, Stripe session id); '' while not paid. */
  provider_reference: string;
  /** True once the QuotaGranted(topup) for this order is in the log. */
  credited: boolean;
  /** Set when an administrator completed the order by hand: their user id. */
  completed_by: number;
}

/** POST /api/user/amount → data: the money as a string with 2 decimals ('7.30'). */
export interface TopUpAmountRequest {
  amount: number;
}

/**
 * POST /api/user/pay → `{success, message, data: EpayFormParams, url}`: the browser posts `data` as
 * a form to `url` (PayAddress + '/submit.php').
 */
export interface EpayPayRequest {
  amount: number;
  payment_method: string;
}

/** The signed Epay form (every value a string). */
export type EpayFormParams = Record<string, string>;

/** POST /api/user/topup/complete (admin) → data: null. */
export interface CompleteTopUpRequest {
  trade_no: string;
}
