import type { CreditFee } from '@tollgate/domain';

/** Reads option values; OptionsCache satisfies it (a plain map in unit tests). */
export interface OptionReader {
  get(key: string): string;
  number(key: string): number;
}

/** Stripe keeps about 3 % + $0.30 of each payment; the credit is what is left. */
export const STRIPE_FEE: CreditFee = { percent: 3, fixedCents: 30 };

/** new-api's ceiling of one Stripe top-up (units). */
export const STRIPE_MAX_TOPUP = 10_000;

/** Stripe is offered once the API key, the webhook secret and the price are set (as new-api). */
export function stripeEnabled(options: OptionReader): boolean {
  return (
    options.get('StripeApiSecret') !== '' &&
    options.get('StripeWebhookSecret') !== '' &&
    options.get('StripePriceId') !== ''
  );
}

/** The smallest amount a session is created for: StripeMinTopUp, at least 1. */
export function stripeMinTopUp(options: OptionReader): number {
  return Math.max(1, Math.floor(options.number('StripeMinTopUp')) || 1);
}

/** What the wallet shows before paying: amount × StripeUnitPrice, in cents. */
export function stripePayCents(amount: number, unitPrice: number): number {
  return Math.round(amount * (Number.isFinite(unitPrice) && unitPrice > 0 ? unitPrice : 0) * 100);
}
