import { recordedEvent } from '@tollgate/testing/recorded-event';
import { UnpaidRedemptions } from './redemption-credit';

const redeemed = (redemptionId: number, userId: number) =>
  recordedEvent(
    'RedemptionRedeemed',
    { redemptionId, userId, quota: 100 * redemptionId, redeemedTime: 1 },
    { metadata: { correlationId: `req-${redemptionId}` } },
  );
const credited = (redemptionId: number, userId: number) =>
  recordedEvent('QuotaGranted', {
    userId,
    amount: 100 * redemptionId,
    reason: 'redemption',
    reference: `redemption-${redemptionId}`,
  });

describe('UnpaidRedemptions', () => {
  it('lists a redeemed code until the credit naming it is seen', () => {
    const unpaid = new UnpaidRedemptions();
    const first = redeemed(1, 7);
    unpaid.apply([first, redeemed(2, 8), credited(2, 8)]);
    expect(unpaid.list()).toEqual([
      {
        reference: 'redemption-1',
        userId: 7,
        quota: 100,
        causeEventId: first.id,
        correlationId: 'req-1',
        owedSince: first.recordedAt,
      },
    ]);
    unpaid.apply([credited(1, 7)]);
    expect(unpaid.list()).toEqual([]);
  });

  it('ignores credits that name no code (new-user grants, top-ups)', () => {
    const unpaid = new UnpaidRedemptions();
    unpaid.apply([
      redeemed(3, 9),
      recordedEvent('QuotaGranted', { userId: 9, amount: 300, reason: 'new_user' }),
      recordedEvent('QuotaGranted', {
        userId: 9,
        amount: 300,
        reason: 'topup',
        reference: 'redemption-3',
      }),
    ]);
    expect(unpaid.list().map((u) => u.reference)).toEqual(['redemption-3']);
  });
});
