import { recordedEvent as recorded } from '@tollgate/testing/recorded-event';
import { BalanceBook } from './balance-book';
import type { Reservation, ReserveResult } from './balance-terms';
import { ReservationWaits } from './reservation-waits';

const granted = (userId: number, amount: number) =>
  recorded('QuotaGranted', { userId, amount, reason: 'admin' });

/** `n` requests at once, each wanting `wanted` (floor `floor`); the reservations of those served. */
async function burst(
  waits: ReservationWaits,
  book: BalanceBook,
  n: number,
  wanted: number,
  floor = wanted,
) {
  return Promise.all(
    Array.from({ length: n }, (_, i) => {
      const args: Parameters<BalanceBook['reserve']> = [`r${i}`, 1, 0, wanted, floor];
      const first = book.reserve(...args);
      return first.ok || !first.waitable ? Promise.resolve(first) : waits.wait(args, first);
    }),
  );
}

const served = (results: ReserveResult[]): Reservation[] =>
  results.flatMap((r) => (r.ok ? [r.reservation] : []));

describe('ReservationWaits', () => {
  it('requests short only of open reservations are served as those settle, in arrival order', async () => {
    const book = new BalanceBook();
    book.apply([granted(1, 100)]);
    const made = recordReservations(book);
    const waits = new ReservationWaits(book, 5_000);
    // Each wants 10, 5 will do (a lowered ceiling).
    const pending = burst(waits, book, 50, 10, 5);
    // Ten fit at once; each settles for 5 and frees room for a waiter, until the balance is spent.
    const settled: string[] = [];
    for (let round = 0; round < 60; round += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const reservation of made.splice(0)) {
        settled.push(reservation.requestId);
        book.settle(reservation, 5);
      }
    }
    const results = await pending;
    expect(served(results)).toHaveLength(20);
    expect(served(results).filter((r) => r.amount === 5).length).toBeGreaterThan(0);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'user_quota')).toBe(
      true,
    );
    expect(book.userBalance(1)).toBe(0);
    // The first ten, then the waiters in the order they came.
    expect(settled.slice(10)).toEqual(settled.slice(10).sort((a, b) => idOf(a) - idOf(b)));
  });

  it('refuses a waiter as soon as nothing open can free its floor', async () => {
    const book = new BalanceBook();
    book.apply([granted(1, 100)]);
    const waits = new ReservationWaits(book, 60_000);
    const first = book.reserve('a', 1, 0, 100);
    if (!first.ok) throw new Error('refused');
    const started = Date.now();
    const waiting = burst(waits, book, 1, 10);
    book.settle(first.reservation, 100);
    const [result] = await waiting;
    expect(result).toEqual({ ok: false, reason: 'user_quota' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('gives up after the wait with the refusal it last had, and serves a credit that came', async () => {
    const book = new BalanceBook();
    book.apply([granted(1, 100)]);
    const waits = new ReservationWaits(book, 50);
    const held = book.reserve('a', 1, 0, 100);
    if (!held.ok) throw new Error('refused');
    const [late] = await burst(waits, book, 1, 10);
    expect(late).toEqual({ ok: false, reason: 'user_quota', waitable: true });
    const waiting = burst(waits, book, 1, 10);
    book.apply([granted(1, 10)]);
    const [credited] = await waiting;
    expect(credited).toMatchObject({ ok: true, reservation: { amount: 10 } });
  });

  it('does not wait when the wait is 0', async () => {
    const book = new BalanceBook();
    book.apply([granted(1, 10)]);
    const waits = new ReservationWaits(book, 0);
    book.reserve('a', 1, 0, 10);
    const [result] = await burst(waits, book, 1, 10);
    expect(result).toEqual({ ok: false, reason: 'user_quota', waitable: true });
  });
});

/** Every reservation the book makes from now on (the waiters' included), in order. */
function recordReservations(book: BalanceBook): Reservation[] {
  const made: Reservation[] = [];
  const reserve = book.reserve.bind(book);
  book.reserve = (...args) => {
    const result = reserve(...args);
    if (result.ok) made.push(result.reservation);
    return result;
  };
  return made;
}

const idOf = (id: string) => Number(id.slice(1));
