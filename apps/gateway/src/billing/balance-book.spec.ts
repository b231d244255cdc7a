import type { RecordedEvent } from '@tollgate/event-store';
import type { RequestRelayed, TaskRefunded, TokenCreated } from '@tollgate/domain';
import { recordedEvent as recorded } from '@tollgate/testing/recorded-event';
import { BalanceBook } from './balance-book';
import type { Reservation } from './balance-terms';
import { tokenCreated as tokenData } from '@tollgate/testing/token-created';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
const granted = (userId: number, amount: number) =>
  recorded('QuotaGranted', { userId, amount, reason: 'topup' });
const tokenCreated = (tokenId: number, userId: number, remainQuota: number, unlimited = false) =>
  recorded(
    'TokenCreated',
    tokenData({
      tokenId,
      userId,
      remainQuota,
      unlimitedQuota: unlimited,
    }) satisfies TokenCreated['data'],
  );
const receipt = (requestId: string, userId: number, tokenId: number, quota: number) =>
  recorded(
    'RequestRelayed',
    usageReceipt({ requestId, userId, tokenId, quota }) satisfies RequestRelayed['data'],
  );
const refunded = (taskId: string, userId: number, tokenId: number, quota: number) =>
  recorded('TaskRefunded', {
    taskId,
    platform: 'midjourney',
    upstreamTaskId: `up-${taskId}`,
    userId,
    tokenId,
    channelId: 1,
    model: 'mj_imagine',
    quota,
    refundedTime: 0,
  } satisfies TaskRefunded['data']);

describe('BalanceBook', () => {
  it('reserves by check-and-decrement: concurrent reservations never overdraw', async () => {
    const book = new BalanceBook();
    book.apply([granted(1, 1000), tokenCreated(7, 1, 0, true)]);
    // 100 "concurrent" requests of 30 each: each reserve runs to completion (one JS thread).
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        Promise.resolve().then(() => book.reserve(`r${i}`, 1, 7, 30)),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(33);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'user_quota')).toBe(
      true,
    );
    expect(book.userBalance(1)).toBe(10);
  });

  it('checks the token cap too, and changes nothing when refused', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 1000), tokenCreated(7, 1, 50)]);
    expect(book.reserve('a', 1, 7, 60)).toEqual({ ok: false, reason: 'token_quota' });
    expect(book.userBalance(1)).toBe(1000);
    expect(book.tokenRemaining(7)).toBe(50);
    expect(book.reserve('b', 1, 99, 1)).toEqual({ ok: false, reason: 'token_quota' });
    expect(book.reserve('c', 2, 0, 1)).toEqual({ ok: false, reason: 'user_quota' });
  });

  it('settle charges the actual cost; the later receipt is not counted twice', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 1000), tokenCreated(7, 1, 500)]);
    const r = book.reserve('req-1', 1, 7, 100);
    if (!r.ok) throw new Error('refused');
    expect(book.settle(r.reservation, 40)).toBe(40);
    expect(book.userBalance(1)).toBe(960);
    expect(book.tokenRemaining(7)).toBe(460);
    book.apply([receipt('req-1', 1, 7, 40)]);
    expect(book.userBalance(1)).toBe(960);
    expect(book.tokenRemaining(7)).toBe(460);
    expect(book.tokenUsed(7)).toBe(40);
  });

  it('settle charges the whole cost past the reservation: a debt that refuses until a credit covers it', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 100), tokenCreated(7, 1, 80)]);
    const r = book.reserve('req-1', 1, 7, 60);
    if (!r.ok) throw new Error('refused');
    expect(book.settle(r.reservation, 500)).toBe(500);
    expect(book.userBalance(1)).toBe(-400);
    expect(book.settledBalance(1)).toBe(-400);
    expect(book.tokenRemaining(7)).toBe(-420);
    // Nothing open could free anything: refused at once, not waitable.
    expect(book.reserve('req-2', 1, 0, 1)).toEqual({ ok: false, reason: 'user_quota' });
    book.apply([receipt('req-1', 1, 7, 500)]);
    expect(book.userBalance(1)).toBe(-400);
    book.apply([granted(1, 401)]);
    const covered = book.reserve('req-3', 1, 0, 1);
    if (!covered.ok) throw new Error('refused after the credit');
    book.release(covered.reservation);
    // The token's own debt stays until its owner sets a new quota.
    expect(book.reserve('req-4', 1, 7, 1)).toEqual({ ok: false, reason: 'token_quota' });
  });

  it('reserves as much as is free down to the floor, naming the limit that lowered it', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 100), tokenCreated(7, 1, 70), granted(2, 1000)]);
    expect(book.reserve('a', 1, 7, 500, 50)).toEqual({
      ok: true,
      reservation: { requestId: 'a', userId: 1, tokenId: 7, amount: 70 },
      limitedBy: 'token_quota',
    });
    // 30 left on the user, 0 on the token: the token refuses the floor.
    expect(book.reserve('b', 1, 7, 500, 10)).toEqual({
      ok: false,
      reason: 'token_quota',
      waitable: true,
    });
    expect(book.reserve('c', 1, 0, 500, 10)).toMatchObject({
      ok: true,
      reservation: { amount: 30 },
      limitedBy: 'user_quota',
    });
    // Wanted fits: all of it, no limit named.
    expect(book.reserve('d', 2, 0, 500, 10)).toEqual({
      ok: true,
      reservation: { requestId: 'd', userId: 2, tokenId: 0, amount: 500 },
    });
  });

  it('a refusal is waitable only while open reservations could make room for the floor', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 100)]);
    const a = book.reserve('a', 1, 0, 90);
    if (!a.ok) throw new Error('refused');
    expect(book.reserve('b', 1, 0, 50, 20)).toEqual({
      ok: false,
      reason: 'user_quota',
      waitable: true,
    });
    // More than the whole balance: no settle can free that much.
    expect(book.reserve('c', 1, 0, 200)).toEqual({ ok: false, reason: 'user_quota' });
    book.settle(a.reservation, 90);
    expect(book.reserve('d', 1, 0, 50, 20)).toEqual({ ok: false, reason: 'user_quota' });
  });

  it('tells the listener after a settle, a release, a credit or a token change (on a microtask)', async () => {
    const book = new BalanceBook();
    const told: number[] = [];
    book.onFreed((userId) => told.push(userId));
    book.apply([granted(1, 100), granted(2, 100), tokenCreated(7, 2, 50)]);
    const a = book.reserve('a', 1, 0, 10);
    const b = book.reserve('b', 2, 7, 10);
    if (!a.ok || !b.ok) throw new Error('refused');
    told.length = 0;
    await Promise.resolve();
    told.length = 0;
    book.settle(a.reservation, 5);
    book.release(b.reservation);
    expect(told).toEqual([]); // never inside the call
    await Promise.resolve();
    expect(told.sort()).toEqual([1, 2]);
    told.length = 0;
    book.apply([recorded('TokenUpdated', { ...(tokenCreated(7, 2, 80).data as object) })]);
    await Promise.resolve();
    expect(told).toEqual([2]);
  });

  it('reserves whole units and refuses nonsense amounts', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 10)]);
    const r = book.reserve('a', 1, 0, 2.2);
    expect(r).toEqual({
      ok: true,
      reservation: { requestId: 'a', userId: 1, tokenId: 0, amount: 3 },
    });
    expect(() => book.reserve('b', 1, 0, -1)).toThrow();
    expect(() => book.reserve('c', 1, 0, Number.NaN)).toThrow();
    expect(() => book.reserve('a', 1, 0, 1)).toThrow(/already reserved/);
    expect(book.userBalance(1)).toBe(7);
  });

  it('release gives the whole reservation back', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 100), tokenCreated(7, 1, 80)]);
    const r = book.reserve('req-1', 1, 7, 60);
    if (!r.ok) throw new Error('refused');
    book.release(r.reservation);
    book.release(r.reservation); // twice changes nothing
    expect(book.userBalance(1)).toBe(100);
    expect(book.tokenRemaining(7)).toBe(80);
  });

  it('a replay after a restart gives the same balances as the live book', () => {
    const live = new BalanceBook();
    const log = [granted(1, 1000), tokenCreated(7, 1, 600), granted(2, 50)];
    live.apply(log);
    for (const [id, cost] of [
      ['a', 30],
      ['b', 70],
      ['c', 5],
    ] as const) {
      const r = live.reserve(id, 1, 7, 100);
      if (!r.ok) throw new Error('refused');
      const charged = live.settle(r.reservation, cost);
      const event = receipt(id, 1, 7, charged);
      log.push(event);
      live.apply([event]);
    }
    log.push(recorded('QuotaAdjusted', { userId: 1, from: 895, to: 2000, delta: 1105, note: '' }));
    live.apply(log.slice(-1));
    const replayed = new BalanceBook();
    replayed.apply(log);
    for (const book of [live, replayed]) {
      expect(book.userBalance(1)).toBe(2000);
      expect(book.userBalance(2)).toBe(50);
      expect(book.tokenRemaining(7)).toBe(495);
      expect(book.tokenUsed(7)).toBe(105);
    }
  });

  it('a receipt from another process (never reserved here) is charged', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 1000), receipt('elsewhere', 1, 0, 300)]);
    expect(book.userBalance(1)).toBe(700);
  });

  it('unlimited tokens report Infinity; a token update resets its cap', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 1000), tokenCreated(7, 1, 0, true), tokenCreated(8, 1, 100)]);
    expect(book.tokenRemaining(7)).toBe(Infinity);
    book.apply([receipt('x', 1, 8, 100)]);
    expect(book.tokenRemaining(8)).toBe(0);
    const updated = { ...(tokenCreated(8, 1, 300).data as object) };
    book.apply([recorded('TokenUpdated', updated)]);
    expect(book.tokenRemaining(8)).toBe(300);
    expect(book.tokenUsed(8)).toBe(100);
    expect(book.tokenRemaining(99)).toBeUndefined();
    expect(book.userBalance(99)).toBeUndefined();
  });

  it('random interleavings of reserve, settle, release and receipts: only overruns go below 0, and replay agrees', () => {
    // A small deterministic PRNG so a failure is reproducible.
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 20; round += 1) {
      const live = new BalanceBook();
      const log: RecordedEvent[] = [granted(1, 5000), tokenCreated(7, 1, 3000), granted(2, 800)];
      live.apply(log);
      const open: Reservation[] = [];
      const pendingReceipts: RecordedEvent[] = [];
      // What settles charged past their reservations, per user and on token 7: the only way below 0.
      const overrun = { user1: 0, user2: 0, token7: 0 };
      for (let step = 0; step < 400; step += 1) {
        const dice = random();
        if (dice < 0.4) {
          const user = random() < 0.7 ? 1 : 2;
          const r = live.reserve(
            `r${round}-${step}`,
            user,
            user === 1 ? 7 : 0,
            Math.floor(random() * 200),
          );
          if (r.ok) open.push(r.reservation);
        } else if (dice < 0.7 && open.length > 0) {
          const [reservation] = open.splice(Math.floor(random() * open.length), 1);
          const charged = live.settle(reservation!, Math.floor(random() * 400));
          const past = Math.max(0, charged - reservation!.amount);
          if (reservation!.userId === 1) overrun.user1 += past;
          else overrun.user2 += past;
          if (reservation!.tokenId === 7) overrun.token7 += past;
          pendingReceipts.push(
            receipt(reservation!.requestId, reservation!.userId, reservation!.tokenId, charged),
          );
        } else if (dice < 0.8 && open.length > 0) {
          live.release(open.splice(Math.floor(random() * open.length), 1)[0]!);
        } else if (pendingReceipts.length > 0) {
          // Receipts come back through the subscription later, in order.
          const event = pendingReceipts.shift()!;
          log.push(event);
          live.apply([event]);
        }
        // Reservations never take what is not free: only the overruns reach below 0.
        expect(live.userBalance(1)!).toBeGreaterThanOrEqual(-overrun.user1);
        expect(live.userBalance(2)!).toBeGreaterThanOrEqual(-overrun.user2);
        expect(live.tokenRemaining(7)!).toBeGreaterThanOrEqual(-overrun.token7);
      }
      for (const r of open.splice(0)) live.release(r);
      for (const event of pendingReceipts.splice(0)) {
        log.push(event);
        live.apply([event]);
      }
      const replayed = new BalanceBook();
      replayed.apply(log);
      for (const user of [1, 2]) expect(replayed.userBalance(user)).toBe(live.userBalance(user));
      expect(replayed.tokenRemaining(7)).toBe(live.tokenRemaining(7));
      expect(replayed.tokenUsed(7)).toBe(live.tokenUsed(7));
    }
  });

  it('a task refund gives back its charge: user balance, token remaining and used', () => {
    const book = new BalanceBook();
    book.apply([granted(1, 1000), tokenCreated(7, 1, 500)]);
    book.apply([receipt('task-a', 1, 7, 200)]);
    expect(book.userBalance(1)).toBe(800);
    expect(book.tokenRemaining(7)).toBe(300);
    book.apply([refunded('task-a', 1, 7, 200)]);
    expect(book.userBalance(1)).toBe(1000);
    expect(book.settledBalance(1)).toBe(1000);
    expect(book.tokenRemaining(7)).toBe(500);
    expect(book.tokenSettledRemaining(7)).toBe(500);
    expect(book.tokenUsed(7)).toBe(0);
  });

  it('the refund of a charge settled locally gives back exactly that charge, replayed or live', () => {
    const live = new BalanceBook();
    const log = [granted(1, 1000), tokenCreated(7, 1, 500)];
    live.apply(log);
    const r = live.reserve('task-b', 1, 7, 300);
    if (!r.ok) throw new Error('refused');
    expect(live.settle(r.reservation, 250)).toBe(250);
    expect(live.userBalance(1)).toBe(750);
    // The receipt comes back through the subscription, then (the task failed) its refund.
    const later = [receipt('task-b', 1, 7, 250), refunded('task-b', 1, 7, 250)];
    log.push(...later);
    live.apply(later.slice(0, 1));
    expect(live.userBalance(1)).toBe(750);
    live.apply(later.slice(1));
    const replayed = new BalanceBook();
    replayed.apply(log);
    for (const book of [live, replayed]) {
      expect(book.userBalance(1)).toBe(1000);
      expect(book.tokenRemaining(7)).toBe(500);
      expect(book.tokenUsed(7)).toBe(0);
    }
  });

  it("a refund raises the token's remaining even past a cap set after the charge; no token, nothing", () => {
    const book = new BalanceBook();
    book.apply([granted(1, 1000), tokenCreated(7, 1, 500), receipt('c', 1, 7, 100)]);
    book.apply([recorded('TokenUpdated', { ...(tokenCreated(7, 1, 50).data as object) })]);
    expect(book.tokenRemaining(7)).toBe(50);
    book.apply([refunded('c', 1, 7, 100), receipt('d', 1, 0, 40), refunded('d', 1, 0, 40)]);
    expect(book.tokenRemaining(7)).toBe(150);
    expect(book.tokenUsed(7)).toBe(0);
    expect(book.userBalance(1)).toBe(1000);
    // A refund naming a token the book does not know changes the user only.
    book.apply([receipt('e', 1, 99, 10), refunded('e', 1, 99, 10)]);
    expect(book.userBalance(1)).toBe(1000);
  });
});

describe('BalanceBook: periodic budgets', () => {
  const ZONE = 'Asia/Shanghai';
  // Tuesday 10 March 2026, 12:00 in Shanghai.
  const NOON = Date.parse('2026-03-10T04:00:00Z');
  const MIDNIGHT = Date.parse('2026-03-10T16:00:00Z'); // Wednesday 00:00 local
  const at = (ms: number) => ({ metadata: { occurredAt: new Date(ms).toISOString() } });
  const budgetToken = (
    tokenId: number,
    userId: number,
    periodQuota: number,
    period: 'day' | 'week' | 'month',
  ) => {
    const event = tokenCreated(tokenId, userId, 0, true);
    return { ...event, data: { ...(event.data as object), periodQuota, period } };
  };
  const userBudget = (userId: number, periodQuota: number, period: '' | 'day' | 'week' | 'month') =>
    recorded('BudgetSet', {
      userId,
      periodQuota,
      period,
      previous: { periodQuota: 0, period: '' },
    });
  function bookAt(start: number) {
    let now = start;
    const book = new BalanceBook();
    book.useClock(() => now, ZONE);
    return { book, set: (ms: number) => (now = ms) };
  }

  it('N concurrent reservations never pass a token budget; the refusal names limit and reset', async () => {
    const { book } = bookAt(NOON);
    book.apply([granted(1, 1_000_000), budgetToken(7, 1, 100, 'day')]);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        Promise.resolve().then(() => book.reserve(`r${i}`, 1, 7, 10)),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    // Refused while the ten are open: waitable (they may settle for less).
    expect(results.find((r) => !r.ok)).toEqual({
      ok: false,
      reason: 'token_budget',
      limit: 100,
      period: 'day',
      resetAt: MIDNIGHT,
      waitable: true,
    });
    // The user's balance is untouched by the refusals.
    expect(book.userBalance(1)).toBe(1_000_000 - 100);
  });

  it('settle charges past the budget in full; released reservations give it back', () => {
    const { book } = bookAt(NOON);
    book.apply([granted(1, 1_000_000), budgetToken(7, 1, 100, 'day')]);
    const a = book.reserve('a', 1, 7, 60);
    if (!a.ok) throw new Error('refused');
    expect(book.reserve('b', 1, 7, 60)).toMatchObject({ ok: false, reason: 'token_budget' });
    // Actual more than reserved: charged in full, the budget overspent by 400.
    expect(book.settle(a.reservation, 500)).toBe(500);
    expect(book.periodUse('token', 7, 'day').used).toBe(500);
    expect(book.reserve('c', 1, 7, 1)).toEqual({
      ok: false,
      reason: 'token_budget',
      limit: 100,
      period: 'day',
      resetAt: MIDNIGHT,
    });
    const { book: other } = bookAt(NOON);
    other.apply([granted(1, 1_000_000), budgetToken(7, 1, 100, 'day')]);
    const d = other.reserve('d', 1, 7, 100);
    if (!d.ok) throw new Error('refused');
    other.release(d.reservation);
    expect(other.reserve('e', 1, 7, 100).ok).toBe(true);
  });

  it('rolls over at the boundary without a job: the next period starts at 0', () => {
    const { book, set } = bookAt(NOON);
    book.apply([granted(1, 1_000_000), budgetToken(7, 1, 100, 'day')]);
    const a = book.reserve('a', 1, 7, 100);
    if (!a.ok) throw new Error('refused');
    book.settle(a.reservation, 100);
    set(MIDNIGHT - 1);
    expect(book.reserve('b', 1, 7, 1)).toMatchObject({ ok: false, resetAt: MIDNIGHT });
    set(MIDNIGHT);
    expect(book.reserve('c', 1, 7, 100).ok).toBe(true);
  });

  it('weeks and months roll over on Monday and on the 1st (local time)', () => {
    const { book, set } = bookAt(NOON);
    book.apply([
      granted(1, 1_000_000),
      budgetToken(7, 1, 10, 'week'),
      budgetToken(8, 1, 10, 'month'),
    ]);
    for (const tokenId of [7, 8]) {
      const r = book.reserve(`t${tokenId}`, 1, tokenId, 10);
      if (!r.ok) throw new Error('refused');
      book.settle(r.reservation, 10);
    }
    const monday = Date.parse('2026-03-15T16:00:00Z'); // Monday 16 March, 00:00 local
    set(monday - 1);
    expect(book.reserve('w1', 1, 7, 1)).toMatchObject({ ok: false, resetAt: monday });
    set(monday);
    expect(book.reserve('w2', 1, 7, 1).ok).toBe(true);
    const april = Date.parse('2026-03-31T16:00:00Z'); // 1 April 00:00 local
    expect(book.reserve('m1', 1, 8, 1)).toMatchObject({ ok: false, resetAt: april });
    set(april);
    expect(book.reserve('m2', 1, 8, 10).ok).toBe(true);
  });

  it('receipts count at their own time: replayed, another process, and an earlier period', () => {
    const { book } = bookAt(NOON);
    book.apply([
      granted(1, 1_000_000),
      budgetToken(7, 1, 100, 'day'),
      // Yesterday's charge counts for nothing today; today's counts.
      { ...receipt('old', 1, 7, 90), ...at(NOON - 86_400_000) },
      { ...receipt('new', 1, 7, 70), ...at(NOON - 60_000) },
    ]);
    expect(book.reserve('a', 1, 7, 31)).toMatchObject({ ok: false, reason: 'token_budget' });
    expect(book.reserve('b', 1, 7, 30).ok).toBe(true);
  });

  it('a task refund gives budget back in its period', () => {
    const { book } = bookAt(NOON);
    book.apply([
      granted(1, 1_000_000),
      budgetToken(7, 1, 100, 'day'),
      { ...receipt('task', 1, 7, 100), ...at(NOON - 1000) },
    ]);
    expect(book.reserve('a', 1, 7, 1).ok).toBe(false);
    book.apply([{ ...refunded('task', 1, 7, 100), ...at(NOON - 500) }]);
    expect(book.reserve('b', 1, 7, 100).ok).toBe(true);
  });

  it('a budget set mid-period counts what was spent since the period began; removing it frees', () => {
    const { book } = bookAt(NOON);
    book.apply([
      granted(1, 1_000_000),
      tokenCreated(7, 1, 0, true),
      { ...receipt('x', 1, 7, 80), ...at(NOON - 3600_000) },
      { ...budgetToken(7, 1, 100, 'day'), type: 'TokenUpdated' },
    ]);
    expect(book.reserve('a', 1, 7, 21).ok).toBe(false);
    book.apply([{ ...tokenCreated(7, 1, 0, true), type: 'TokenUpdated' }]);
    expect(book.reserve('b', 1, 7, 1000).ok).toBe(true);
  });

  it("holds a user's budget across their tokens and the playground", () => {
    const { book, set } = bookAt(NOON);
    book.apply([
      granted(1, 1_000_000),
      tokenCreated(7, 1, 0, true),
      tokenCreated(8, 1, 0, true),
      userBudget(1, 50, 'day'),
    ]);
    expect(book.reserve('a', 1, 7, 20).ok).toBe(true);
    expect(book.reserve('b', 1, 8, 20).ok).toBe(true);
    expect(book.reserve('c', 1, 0, 20)).toEqual({
      ok: false,
      reason: 'user_budget',
      limit: 50,
      period: 'day',
      resetAt: MIDNIGHT,
      waitable: true,
    });
    expect(book.reserve('d', 1, 0, 10).ok).toBe(true);
    set(MIDNIGHT + 1);
    // Open reservations still hold their part across the boundary.
    expect(book.reserve('e', 1, 0, 1).ok).toBe(false);
    book.apply([userBudget(1, 0, '')]);
    expect(book.reserve('f', 1, 0, 1000).ok).toBe(true);
  });

  it('the quota checks come first and keep their answers', () => {
    const { book } = bookAt(NOON);
    book.apply([granted(1, 5), budgetToken(7, 1, 100, 'day')]);
    expect(book.reserve('a', 1, 7, 10)).toEqual({ ok: false, reason: 'user_quota' });
  });
});
