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
