import type { RequestRelayed } from '@tollgate/domain';
import { recordedEvent as recorded } from '@tollgate/testing/recorded-event';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { BalanceBook } from './balance-book';

const NOW = Date.parse('2026-05-01T10:00:00Z');
const granted = (userId: number, amount: number) =>
  recorded('QuotaGranted', { userId, amount, reason: 'topup' });
const leased = (leaseId: string, holder: string, amount: number, expiresAt = NOW + 60_000) =>
  recorded('BalanceLeased', { userId: 1, leaseId, holder, amount, expiresAt });
const receipt = (requestId: string, quota: number, leaseId?: string) =>
  recorded('RequestRelayed', {
    ...usageReceipt({ requestId, userId: 1, tokenId: 0, quota }),
    ...(leaseId ? { leaseId } : {}),
  } satisfies RequestRelayed['data']);

function leasingBook(holder = 'me'): BalanceBook {
  const book = new BalanceBook();
  book.useClock(() => NOW);
  book.useLeases(holder, 5_000);
  book.apply([granted(1, 1000)]);
  return book;
}

describe('BalanceBook with balance leases (scale-out)', () => {
  it('spends only what this process leased, whatever the balance', () => {
    const book = leasingBook();
    expect(book.reserve('r0', 1, 0, 10)).toEqual({ ok: false, reason: 'user_quota' });
    book.apply([leased('L1', 'me', 100)]);
    const first = book.reserve('r1', 1, 0, 60);
    expect(first).toMatchObject({ ok: true, reservation: { leaseId: 'L1', amount: 60 } });
    // Short while r1 is open (it may settle for less): waitable.
    expect(book.reserve('r2', 1, 0, 50)).toEqual({
      ok: false,
      reason: 'user_quota',
      waitable: true,
    });
    expect(book.heldLease('user', 1)).toMatchObject({ leaseId: 'L1', left: 40, busy: true });
  });

  it("ignores other processes' leases for spending, counts them for the next lease", () => {
    const book = leasingBook();
    book.apply([leased('L9', 'other', 300)]);
    expect(book.reserve('r1', 1, 0, 1)).toEqual({ ok: false, reason: 'user_quota' });
    expect(book.leaseView('user', 1, 2)).toEqual({ settled: 1000, seen: { L9: 0 }, atVersion: 2 });
    book.apply([receipt('their-1', 120, 'L9')]);
    expect(book.leaseView('user', 1, 3)).toEqual({ settled: 880, seen: { L9: 120 }, atVersion: 3 });
  });

  it('a settle charges in full even past the lease, counted in the lease and the view once', () => {
    const book = leasingBook();
    book.apply([leased('L1', 'me', 100)]);
    const r = book.reserve('r1', 1, 0, 30);
    if (!r.ok) throw new Error('refused');
    expect(book.settle(r.reservation, 500)).toBe(500); // the overrun is charged, not capped
    expect(book.heldLease('user', 1)).toMatchObject({ spent: 500, left: -400, busy: false });
    expect(book.reserve('r2', 1, 0, 1)).toEqual({ ok: false, reason: 'user_quota' });
    expect(book.leaseView('user', 1, 2).seen).toEqual({ L1: 500 });
    // Its own receipt, arriving through the subscription, is not counted again.
    book.apply([receipt('r1', 500, 'L1')]);
    expect(book.leaseView('user', 1, 3)).toEqual({ settled: 500, seen: { L1: 500 }, atVersion: 3 });
  });

  it('stops spending a lease about to lapse (the margin), so a renewal comes first', () => {
    const book = leasingBook();
    book.apply([leased('L1', 'me', 100, NOW + 4_000)]);
    expect(book.reserve('r1', 1, 0, 1)).toEqual({ ok: false, reason: 'user_quota' });
    book.apply([
      recorded('BalanceLeaseRenewed', {
        userId: 1,
        leaseId: 'L1',
        holder: 'me',
        added: 50,
        expiresAt: NOW + 60_000,
      }),
    ]);
    expect(book.reserve('r2', 1, 0, 150)).toMatchObject({ ok: true });
  });

  it('a returned or expired lease is gone here and everywhere', () => {
    const book = leasingBook();
    book.apply([leased('L1', 'me', 100), leased('L9', 'other', 100)]);
    book.apply([
      recorded('BalanceLeaseReturned', {
        userId: 1,
        leaseId: 'L1',
        holder: 'me',
        amount: 100,
        spent: 0,
      }),
      recorded('BalanceLeaseExpired', { userId: 1, leaseId: 'L9', holder: 'other', amount: 100 }),
    ]);
    expect(book.heldLease('user', 1)).toBeUndefined();
    expect(book.leaseView('user', 1, 5).seen).toEqual({});
    expect(book.reserve('r1', 1, 0, 1)).toEqual({ ok: false, reason: 'user_quota' });
  });

  it("lists other processes' leases past expiry and grace as silent, never its own", () => {
    const book = leasingBook();
    book.apply([leased('L1', 'me', 100, NOW - 60_000), leased('L9', 'other', 100, NOW - 10_000)]);
    expect(book.silentLeases(5_000)).toEqual([{ kind: 'user', id: 1, leaseId: 'L9' }]);
    expect(book.silentLeases(20_000)).toEqual([]);
  });

  it('single-process mode is unchanged: the whole balance, no lease on the reservation', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 1000)]);
    const r = book.reserve('r1', 1, 0, 900);
    expect(r).toEqual({
      ok: true,
      reservation: { requestId: 'r1', userId: 1, tokenId: 0, amount: 900 },
    });
  });
});

describe('BalanceBook with budget leases (scale-out)', () => {
  const UTC = 'UTC';
  const DAY_START = Date.parse('2026-05-01T00:00:00Z');
  const DAY_END = Date.parse('2026-05-02T00:00:00Z');
  const TODAY = { period: 'day', start: DAY_START, end: DAY_END } as const;
  const budgetSet = (periodQuota: number) =>
    recorded('BudgetSet', {
      userId: 1,
      periodQuota,
      period: 'day',
      previous: { periodQuota: 0, period: '' },
    });
  const budgetLeased = (leaseId: string, holder: string, amount: number, expiresAt: number) =>
    recorded('BalanceLeased', { userId: 1, window: TODAY, leaseId, holder, amount, expiresAt });

  function budgetedBook(now: { at: number }): BalanceBook {
    const book = new BalanceBook();
    book.useClock(() => now.at, UTC);
    book.useLeases('me', 5_000);
    book.apply([granted(1, 10_000), leased('L1', 'me', 10_000), budgetSet(300)]);
    return book;
  }

  it('reserves a budget only from its lease, and names the lease in the reservation', () => {
    const now = { at: NOW };
    const book = budgetedBook(now);
    // The balance lease covers it, the budget has room as seen here, but no budget lease: refused.
    expect(book.reserve('r0', 1, 0, 10)).toMatchObject({ ok: false, reason: 'user_budget' });
    expect(book.budgetWindow('user-budget', 1)).toEqual(TODAY);
    book.apply([budgetLeased('B1', 'me', 100, NOW + 60_000)]);
    expect(book.reserve('r1', 1, 0, 60)).toMatchObject({
      ok: true,
      reservation: { leaseId: 'L1', budgetLeaseId: 'B1', amount: 60 },
    });
    // Lowered to what is left of the budget lease (40), as a budget lowers the ceiling alone.
    expect(book.reserve('r2', 1, 0, 60, 10)).toMatchObject({
      ok: true,
      reservation: { amount: 40 },
      limitedBy: 'user_budget',
    });
  });

  it("views a budget as the budget less the window's charges, with the leases of that window", () => {
    const now = { at: NOW };
    const book = budgetedBook(now);
    book.apply([
      budgetLeased('B9', 'other', 200, NOW + 60_000),
      recorded(
        'RequestRelayed',
        {
          ...usageReceipt({ requestId: 'their', userId: 1, tokenId: 0, quota: 50 }),
          budgetLeaseId: 'B9',
        } satisfies RequestRelayed['data'],
        { recordedAt: new Date(NOW) }, // charged in today's window
      ),
    ]);
    expect(book.leaseView('user-budget', 1, 7)).toEqual({
      settled: 250,
      seen: { B9: 50 },
      atVersion: 7,
    });
  });

  it('a budget lease cut at its window end is spent to the end, not after', () => {
    const now = { at: DAY_END - 1_000 }; // within the 5 s renewal margin of a balance lease
    const book = budgetedBook(now);
    // The balance lease renewed past midnight; the budget lease ends with the day.
    book.apply([leased('L1', 'me', 10_000, DAY_END + 60_000)]);
    book.apply([budgetLeased('B1', 'me', 100, DAY_END)]);
    expect(book.reserve('r1', 1, 0, 10)).toMatchObject({ ok: true });
    now.at = DAY_END;
    expect(book.reserve('r2', 1, 0, 10)).toMatchObject({ ok: false, reason: 'user_budget' });
  });

  it('a new budget ends the leases of the old one', () => {
    const book = budgetedBook({ at: NOW });
    book.apply([budgetLeased('B1', 'me', 100, NOW + 60_000)]);
    expect(book.heldLease('user-budget', 1)).toBeDefined();
    book.apply([budgetSet(500)]);
    expect(book.heldLease('user-budget', 1)).toBeUndefined();
    expect(book.heldLease('user', 1)).toBeDefined();
  });
});
