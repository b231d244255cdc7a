import { usageSummaryEvents, usageSummaryStreamId } from '@tollgate/domain';
import { recordedEvent } from '@tollgate/testing/recorded-event';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { BalanceBook } from '../billing/balance-book';
import { LEDGER_EVENT_TYPES, LedgerFold } from './ledger-fold';

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

  it('a failed call (RequestFailed) charges no one and counts no request', () => {
    const fold = new LedgerFold();
    fold.apply('UserRegistered', { userId: 7 });
    fold.apply('QuotaGranted', { userId: 7, amount: 1000, reason: 'new_user' });
    fold.apply('RequestFailed', { requestId: 'f1', userId: 7, tokenId: 3, channelId: 2, quota: 0 });
    expect(LEDGER_EVENT_TYPES).not.toContain('RequestFailed');
    expect(fold.users.get(7)).toMatchObject({ credited: 1000, charged: 0, requests: 0 });
    expect(fold.channels.get(2)).toBeUndefined();
  });

  it("an imported channel's used quota is where its receipts start counting", () => {
    const fold = new LedgerFold();
    expect(LEDGER_EVENT_TYPES).toContain('ChannelImported');
    fold.apply('ChannelImported', { channelId: 4, usedQuota: 1000 });
    fold.apply('RequestRelayed', {
      requestId: 'r',
      userId: 7,
      tokenId: 0,
      channelId: 4,
      quota: 25,
    });
    expect(fold.channels.get(4)).toEqual({ used: 1025, requests: 1 });
  });

  it('a task refund takes its receipt back everywhere, and the fold agrees with the balance book', () => {
    const log = [
      recordedEvent('UserRegistered', { userId: 7 }),
      recordedEvent('QuotaGranted', { userId: 7, amount: 1000, reason: 'topup' }),
      recordedEvent('TokenCreated', {
        tokenId: 3,
        userId: 7,
        remainQuota: 500,
        unlimitedQuota: false,
      }),
      recordedEvent('RequestRelayed', usageReceipt({ userId: 7, tokenId: 3, quota: 40 })),
      recordedEvent(
        'RequestRelayed',
        usageReceipt({
          requestId: 'task-a',
          userId: 7,
          tokenId: 3,
          channelId: 2,
          quota: 300,
          task: { platform: 'midjourney', action: 'IMAGINE', upstreamTaskId: 'mj-a' },
        }),
      ),
      // The owner lowers the cap after the charge: the refund lifts the token past it.
      recordedEvent('TokenUpdated', {
        tokenId: 3,
        userId: 7,
        remainQuota: 100,
        unlimitedQuota: false,
      }),
      recordedEvent('TaskRefunded', {
        taskId: 'a',
        platform: 'midjourney',
        upstreamTaskId: 'mj-a',
        userId: 7,
        tokenId: 3,
        channelId: 2,
        model: 'mj_imagine',
        quota: 300,
        refundedTime: 0,
      }),
    ];
    expect(LEDGER_EVENT_TYPES).toContain('TaskRefunded');
    const fold = new LedgerFold();
    for (const event of log) fold.apply(event.type, event.data);
    expect(fold.users.get(7)).toMatchObject({ credited: 1000, charged: 40, requests: 1 });
    expect(fold.tokens.get(3)).toMatchObject({ cap: 100, chargedSinceCap: -300, used: 40 });
    expect(fold.channels.get(1)?.used).toBe(40);
    expect(fold.channels.get(2)?.used).toBe(0);

    // The balance book, replayed from the same log (as the CLI check does), says the same.
    const book = new BalanceBook();
    book.apply(log);
    const token = fold.tokens.get(3)!;
    expect(book.settledBalance(7)).toBe(1000 - 40);
    expect(book.tokenSettledRemaining(3)).toBe(token.cap - token.chargedSinceCap);
    expect(book.tokenUsed(3)).toBe(token.used);
  });

  it('a usage summary counts only when none of its source stream was folded; alone it equals the receipts', () => {
    const source = 'usage-p1-2026011508';
    const receipts = [
      usageReceipt({ userId: 7, tokenId: 3, channelId: 2, quota: 100 }),
      usageReceipt({ userId: 7, tokenId: 3, channelId: 1, quota: 30, model: 'gpt-4o' }),
      usageReceipt({ userId: 8, tokenId: 0, channelId: 2, quota: 12 }),
    ];
    const summary = usageSummaryEvents(source, Date.UTC(2026, 0, 15, 8), receipts);
    const setup = () => {
      const fold = new LedgerFold();
      fold.apply('QuotaGranted', { userId: 7, amount: 1000, reason: 'topup' });
      fold.apply('TokenCreated', {
        tokenId: 3,
        userId: 7,
        remainQuota: 500,
        unlimitedQuota: false,
      });
      return fold;
    };
    // Keyed by id (a Map's order is the order ids were first seen).
    const sums = (fold: LedgerFold) => ({
      users: Object.fromEntries(fold.users),
      tokens: Object.fromEntries(fold.tokens),
      channels: Object.fromEntries(fold.channels),
    });
    const live = setup();
    for (const receipt of receipts) live.apply('RequestRelayed', receipt, source);
    expect(live.users.get(7)).toMatchObject({ charged: 130, requests: 2 });

    const both = setup();
    for (const receipt of receipts) both.apply('RequestRelayed', receipt, source);
    for (const event of summary) both.apply(event.type, event.data, usageSummaryStreamId(source));
    expect(sums(both)).toEqual(sums(live));

    const archived = setup();
    for (const event of summary) archived.apply(event.type, event.data);
    expect(sums(archived)).toEqual(sums(live));
    expect(LEDGER_EVENT_TYPES).toContain('UsageSummarized');
  });
});
