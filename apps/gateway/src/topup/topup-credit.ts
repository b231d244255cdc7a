import { Injectable } from '@nestjs/common';
import { topUpReference, type TopUpOrderPaid } from '@tollgate/domain';
import { PendingCredits } from '../billing/owed-credits';

/** Paid orders whose credit the log does not show yet (see {@link PendingCredits}). */
@Injectable()
export class UncreditedTopUps extends PendingCredits {
  readonly name = 'uncredited-topups';

  constructor() {
    super('TopUpOrderPaid', 'topup', (data) => {
      const d = data as TopUpOrderPaid['data'];
      return { reference: topUpReference(d.tradeNo), userId: d.userId, quota: d.quota };
    });
  }
}
