import { LedgerFold } from './ledger-fold';

describe('LedgerFold (what the events say every balance is)', () => {
  it('user = credits − receipts; token = last cap − receipts since; channel = Σ its receipts', () => {
    const fold = new LedgerFold();
    const receipt = (quota: number, tokenId = 3, channelId = 2) => ({
      requestId: `r${quota}`,
      userId: 7,
      tokenId,
      channelId,
      quota,
    });
    fold.apply('UserRegistered', { userId: 7 });
    fold.apply('QuotaGranted', { userId: 7, amount: 1000, reason: 'new_user' });
    fold.apply('TokenCreated', { tokenId: 3, userId: 7, remainQuota: 500, unlimitedQuota: false });
    fold.apply('RequestRelayed', receipt(100));
    fold.apply('QuotaAdjusted', { userId: 7, from: 900, to: 400, delta: -500 });
    fold.apply('TokenUpdated', { tokenId: 3, userId: 7, remainQuota: 300, unlimitedQuota: false });
    fold.apply('RequestRelayed', receipt(20));
    fold.apply('RequestRelayed', receipt(5, 0, 0));
    fold.apply('InviterRewarded', { userId: 7, inviteeId: 8, amount: 50 });
    fold.apply('AffQuotaTransferred', { userId: 7, amount: 50 });

    expect(fold.users.get(7)).toEqual({
      credited: 1000 - 500 + 50,
      charged: 125,
      requests: 3,
      aff: 0,
      billingEvents: 4,
    });
    expect(fold.tokens.get(3)).toMatchObject({ cap: 300, chargedSinceCap: 20, used: 120 });
    expect(fold.channels.get(2)).toEqual({ used: 120, requests: 2 });
  });
});
