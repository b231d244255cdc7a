import { Injectable } from '@nestjs/common';
import { priceTopUp, type CreditFee, type TopUpPricing } from '@tollgate/domain';
import { OptionsCache } from '../options/options.cache';

export interface PriceOverrides {
  /** Unit price instead of the `Price` option (Stripe has its own). */
  readonly price?: number;
  /** Minimum instead of the `MinTopUp` option. */
  readonly minTopUp?: number;
  /** Ratio instead of the group's TopupGroupRatio (Stripe: 1, it charges Price × quantity). */
  readonly groupRatio?: number;
  /** A fee kept from the credit (Stripe's 3 % + $0.30). */
  readonly creditFee?: CreditFee;
}

/** Prices a top-up for a user's group from the options (Price, MinTopUp, TopupGroupRatio, QuotaPerUnit). */
@Injectable()
export class TopUpPricer {
  constructor(private readonly options: OptionsCache) {}

  groupRatio(group: string): number {
    const ratios = this.options.json<Record<string, unknown>>('TopupGroupRatio', {});
    const ratio = ratios[group];
    return typeof ratio === 'number' && Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
  }

  minTopUp(): number {
    return Math.max(1, this.options.number('MinTopUp'));
  }

  quotaPerUnit(): number {
    return this.options.number('QuotaPerUnit') || 500000;
  }

  /** Throws DomainError topup.* for a refused amount. */
  quote(group: string, amount: number, overrides: PriceOverrides = {}): TopUpPricing {
    return priceTopUp({
      amount,
      price: overrides.price ?? this.options.number('Price'),
      groupRatio: overrides.groupRatio ?? this.groupRatio(group),
      quotaPerUnit: this.quotaPerUnit(),
      minTopUp: overrides.minTopUp ?? this.minTopUp(),
      ...(overrides.creditFee ? { creditFee: overrides.creditFee } : {}),
    });
  }
}
