import { TOPUP_MAX_AMOUNT } from '@tollgate/contracts';
import { DomainError } from '../shared/domain-error';

export interface TopUpPricingInput {
  /** Top-up units asked for: a positive integer. */
  readonly amount: number;
  /** Price per unit (the `Price` option for Epay). */
  readonly price: number;
  /** The user's group's TopupGroupRatio; 0 or missing counts as 1 (as in new-api). */
  readonly groupRatio: number;
  readonly quotaPerUnit: number;
  readonly minTopUp: number;
  /**
   * A fee kept from the credit (Stripe: 3 % + $0.30): quota = (amount − percent % −
   * fixedCents / 100) × QuotaPerUnit, rounded down. None by default (Epay credits the whole amount).
   */
  readonly creditFee?: CreditFee;
}

export interface CreditFee {
  readonly percent: number;
  readonly fixedCents: number;
}

/** Quota for `amount` units less `fee`, in integers: ⌊QuotaPerUnit × (amount × (100 − percent) − fixedCents) / 100⌋. */
export function quotaAfterFee(amount: number, quotaPerUnit: number, fee: CreditFee): number {
  const keptCents = amount * (100 - fee.percent) - fee.fixedCents;
  return keptCents > 0 ? Math.floor((quotaPerUnit * keptCents) / 100) : 0;
}

export interface TopUpPricing {
  readonly amount: number;
  /** Rounded to cents. */
  readonly money: number;
  readonly quota: number;
  readonly groupRatio: number;
  readonly price: number;
}

/** Money as integer cents: what comparisons with a provider's figure use. */
export const toCents = (money: number): number => Math.round(money * 100);

/**
 * new-api's getPayMoney / getTopUpQuota: money = amount × price × group ratio (cents),
 * quota = amount × QuotaPerUnit. Refuses an amount under MinTopUp, above TOPUP_MAX_AMOUNT, not an
 * integer, or one whose money rounds under one cent.
 */
export function priceTopUp(input: TopUpPricingInput): TopUpPricing {
  const { amount } = input;
  const minimum = Math.max(1, Math.floor(input.minTopUp) || 1);
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new DomainError('topup.amount_invalid');
  if (amount < minimum) throw new DomainError('topup.amount_below_minimum', { minimum });
  if (amount > TOPUP_MAX_AMOUNT)
    throw new DomainError('topup.amount_too_large', { maximum: TOPUP_MAX_AMOUNT });
  const groupRatio =
    Number.isFinite(input.groupRatio) && input.groupRatio > 0 ? input.groupRatio : 1;
  const price = Number.isFinite(input.price) && input.price > 0 ? input.price : 0;
  const quota = input.creditFee
    ? quotaAfterFee(amount, input.quotaPerUnit, input.creditFee)
    : Math.round(amount * input.quotaPerUnit);
  if (!Number.isSafeInteger(quota) || quota <= 0) throw new DomainError('topup.amount_invalid');
  const cents = Math.round(amount * price * groupRatio * 100);
  if (!Number.isSafeInteger(cents) || cents < 1) throw new DomainError('topup.money_too_low');
  return { amount, money: cents / 100, quota, groupRatio, price };
}
