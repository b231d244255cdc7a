import { Injectable } from '@nestjs/common';
import type { RedemptionRedeemed } from '@tollgate/domain';
import { PendingCredits } from '../billing/owed-credits';

export const redemptionReference = (redemptionId: number) => `redemption-${redemptionId}`;

/** Redeemed codes whose credit the log does not show yet (see {@link PendingCredits}). */
@Injectable()
export class UnpaidRedemptions extends PendingCredits {
  readonly name = 'unpaid-redemptions';

  constructor() {
    super('RedemptionRedeemed', 'redemption', (data) => {
      const d = data as RedemptionRedeemed['data'];
      return { reference: redemptionReference(d.redemptionId), userId: d.userId, quota: d.quota };
    });
  }
}
