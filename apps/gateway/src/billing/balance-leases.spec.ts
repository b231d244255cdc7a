import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { PendingWrites } from '../infrastructure/pending-writes';
import { StreamCommands } from '../infrastructure/stream-commands';
import { UsageAppender } from '../usage/usage-appender';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { SYSTEM_ACTOR } from '@tollgate/domain';
import { tokenCreated as tokenData } from '@tollgate/testing/token-created';
import { leasesOf } from '../relay/relay-ports';
import { BalanceBook } from './balance-book';
import { BalanceLeases } from './balance-leases';

const USER = 1;
const TOKEN = 7;

/** A limited token of USER with a cap of `remainQuota`. */
const tokenCreated = (remainQuota: number) =>
  tokenData({ tokenId: TOKEN, userId: USER, remainQuota });

/** One gateway process's billing side: its own store handle on the shared file, book and keeper. */
class Node {
  readonly store: SqliteEventStore;
  readonly book = new BalanceBook();
  readonly feed: CacheFeed;
  readonly appender: UsageAppender;
  readonly pending = new PendingWrites();
  readonly leases: BalanceLeases;

  constructor(file: string, slice: number, ttlMs: number) {
    this.store = SqliteEventStore.open(file, { synchronous: 'normal', watchForeignAppendsMs: 5 });
    this.feed = new CacheFeed(this.store);
    this.feed.register(this.book);
    this.appender = new UsageAppender(this.store, undefined, this.pending);
    this.leases = new BalanceLeases(
      { scaleOut: true, leaseTtlMs: ttlMs, leaseSliceQuota: slice },
      this.book,
      new StreamCommands(this.store),
      this.feed,
      this.store,
      this.appender,
      this.pending,
    );
  }

  async start(): Promise<this> {
    await this.feed.start();
    this.leases.onApplicationBootstrap();
    return this;
  }

  /** A relayed call as the relay makes it: reserve (leasing what is short), settle, receipt. */
  /** The token the calls go through (0: none, as the playground). */
  tokenId = 0;

  async spend(requestId: string, quota: number): Promise<boolean> {
    const reserved = await this.leases.reserve(requestId, USER, this.tokenId, quota);
    if (!reserved.ok) return false;
    const charged = this.book.settle(reserved.reservation, quota);
    await this.appender.append(
      {
        ...usageReceipt({ requestId, userId: USER, tokenId: this.tokenId, quota: charged }),
        ...leasesOf(reserved.reservation),
      },
      { actor: SYSTEM_ACTOR, correlationId: requestId },
    );
    return true;
  }

  /** Dies as kill -9 would: no return, no more renewals. */
  async crash(): Promise<void> {
    this.leases.onModuleDestroy();
    await this.feed.onApplicationShutdown();
    await this.store.close();
  }

  async stop(): Promise<void> {
    await this.pending.drain();
    await this.crash();
  }
}

const types = async (store: SqliteEventStore) =>
  (await store.readStream(`billing-${USER}`)).map((event) => event.type);

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('BalanceLeases: processes sharing one balance through leases', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-leases-'));
  const nodes: Node[] = [];
  let file: string;

  beforeEach(async () => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
    const setup = SqliteEventStore.open(file);
    await setup.append(
      `billing-${USER}`,
      [
        {
          id: 'grant-1',
          type: 'QuotaGranted',
          data: { userId: USER, amount: 10_000, reason: 'topup' },
        },
      ],
      'no_stream',
    );
    await setup.append(
      `token-${TOKEN}`,
      [{ id: 'token-1', type: 'TokenCreated', data: tokenCreated(3_000) }],
      'no_stream',
    );
    await setup.close();
  });
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((node) => node.stop().catch(() => undefined)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // 3 s leases: idle after 0.5 s, renewed 1 s in, silent 4.5 s after the last renewal.
  const node = async (slice = 3_000, ttlMs = 3_000) => {
    const started = await new Node(file, slice, ttlMs).start();
    nodes.push(started);
    return started;
  };

  it('two processes together never lease more than the balance', async () => {
    const [a, b] = [await node(), await node()];
    expect(await a.spend('a1', 1_000)).toBe(true);
    expect(a.book.heldLease('user', USER)).toMatchObject({ amount: 3_000, spent: 1_000 });
    // 10 000 − A's 3 000 leased: 7 000 free, not 8 000.
    expect(await b.leases.ensure('user', USER, 8_000)).toBe(false);
    expect(await b.spend('b1', 7_000)).toBe(true);
    expect(await b.spend('b2', 1)).toBe(false);
    const leased = (await a.store.readStream(`billing-${USER}`))
      .filter((event) => event.type === 'BalanceLeased')
      .reduce((sum, event) => sum + (event.data as { amount: number }).amount, 0);
    expect(leased).toBe(10_000);
  });

  it('concurrent requests in one process share one lease decision', async () => {
    const a = await node(5_000);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => a.spend(`r${i}`, 100)));
    expect(results.every(Boolean)).toBe(true);
    expect((await types(a.store)).filter((type) => type === 'BalanceLeased')).toHaveLength(1);
  });

  it('an idle lease is given back once its receipts are durable, and the quota is free again', async () => {
    const [a, b] = [await node(10_000), await node()];
    expect(await a.spend('a1', 2_500)).toBe(true);
    const held = a.book.reserve('held', USER, 0, 1); // busy: not given back meanwhile
    expect(await b.spend('b1', 1)).toBe(false); // A holds all of it
    if (held.ok) a.book.release(held.reservation);
    await until(async () => (await types(a.store)).includes('BalanceLeaseReturned'), 'the return');
    const returned = (await a.store.readStream(`billing-${USER}`)).find(
      (event) => event.type === 'BalanceLeaseReturned',
    );
    expect(returned?.data).toMatchObject({ amount: 10_000, spent: 2_500 });
    await until(
      () =>
        b.book.settledBalance(USER) === 7_500 &&
        Object.keys(b.book.leaseView('user', USER, 0).seen).length === 0,
      "B has seen A's receipt and return",
    );
    expect(await b.spend('b2', 7_500)).toBe(true);
    expect(await b.spend('b3', 1)).toBe(false);
  });

  it('a busy lease is renewed before it lapses', async () => {
    const a = await node(10_000);
    expect(await a.spend('a1', 10)).toBe(true);
    const first = a.book.heldLease('user', USER)!.expiresAt;
    // Keep it busy: a reservation stays open.
    const open = a.book.reserve('held', USER, 0, 10);
    expect(open.ok).toBe(true);
    await until(() => (a.book.heldLease('user', USER)?.expiresAt ?? 0) > first, 'the renewal');
    expect(await types(a.store)).toContain('BalanceLeaseRenewed');
    if (open.ok) a.book.release(open.reservation);
  });

  it("a dead process's lease expires by another's event; what it spent stays charged", async () => {
    const [a, b] = [await node(6_000), await node()];
    expect(await a.spend('a1', 1_000)).toBe(true);
    await a.appender.drained(); // its receipt is durable, then it dies holding 5 000 unspent
    await a.crash();
    nodes.splice(nodes.indexOf(a), 1);
    expect(await b.spend('b1', 4_000)).toBe(true); // 10 000 − 6 000 leased
    expect(await b.spend('b2', 4_000)).toBe(false);
    await until(async () => (await types(b.store)).includes('BalanceLeaseExpired'), 'the expiry');
    await until(
      () =>
        b.book.heldLease('user', USER) === undefined || b.book.heldLease('user', USER)!.left >= 0,
      'b',
    );
    // A's 5 000 unspent is free again; its 1 000 stays charged: 10 000 − 1 000 − 4 000 = 5 000.
    expect(await b.spend('b3', 5_000)).toBe(true);
    expect(await b.spend('b4', 1)).toBe(false);
    expect(b.book.settledBalance(USER)).toBe(0);
  });

  it("a limited token's quota is leased too: together the processes never pass its cap", async () => {
    const [a, b] = [await node(1_000), await node(1_000)];
    a.tokenId = b.tokenId = TOKEN;
    const spent = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).spend(`t${i}`, 100)),
    );
    // The token's cap (3 000) binds before the user's balance (10 000): at most 30 calls of 100
    // (exactly 30 in the runs here; a call may give up after a few lease turns under contention).
    const served = spent.filter(Boolean).length;
    expect(served).toBeLessThanOrEqual(30);
    expect(served).toBeGreaterThan(10); // more than one process's first slice
    const tokenStream = await a.store.readStream(`token-${TOKEN}`);
    expect(tokenStream.some((event) => event.type === 'BalanceLeased')).toBe(true);
    expect(tokenStream.find((event) => event.type === 'BalanceLeased')?.data).toMatchObject({
      userId: USER,
      tokenId: TOKEN,
      holder: expect.any(String),
    });
    await a.appender.drained();
    await b.appender.drained();
    await until(
      () => a.book.tokenSettledRemaining(TOKEN) === 3_000 - served * 100,
      "A has seen B's receipts",
    );
  });

  it('a new cap set by the owner ends the leases on the old one', async () => {
    const a = await node(1_000);
    a.tokenId = TOKEN;
    expect(await a.spend('t1', 100)).toBe(true);
    expect(a.book.heldLease('token', TOKEN)).toBeDefined();
    const {
      tokenId: _t,
      userId: _u,
      sealedKey: _s,
      keyHash: _k,
      createdTime: _c,
      ...settings
    } = tokenCreated(500);
    await a.store.append(
      `token-${TOKEN}`,
      [
        {
          id: 'token-2',
          type: 'TokenUpdated',
          data: { tokenId: TOKEN, userId: USER, ...settings },
        },
      ],
      'any',
    );
    await until(() => a.book.heldLease('token', TOKEN) === undefined, 'the lease dropped');
    expect(await a.spend('t2', 500)).toBe(true); // a lease from the new cap
    expect(await a.spend('t3', 1)).toBe(false);
  });

  it('a shutdown returns the leases after draining the receipts', async () => {
    const a = await node(10_000);
    expect(await a.spend('a1', 300)).toBe(true);
    await a.pending.drain();
    const events = await a.store.readStream(`billing-${USER}`);
    expect(events.map((event) => event.type)).toEqual([
      'QuotaGranted',
      'BalanceLeased',
      'BalanceLeaseReturned',
    ]);
    expect(events[2]!.data).toMatchObject({ spent: 300 });
  });
});

describe('BalanceLeases: periodic budgets leased per window across processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-budget-leases-'));
  const nodes: Node[] = [];
  /** An unlimited token of USER whose only limit is its daily budget. */
  const BUDGETED_TOKEN = 8;
  const CALL = 100;
  /** A daily budget of 10 calls of CALL, far below the balance (10 000) and the slice (3 000). */
  const DAILY = 10 * CALL;
  let file: string;

  beforeEach(async () => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
    const setup = SqliteEventStore.open(file);
    await setup.append(
      `billing-${USER}`,
      [
        {
          id: 'grant-1',
          type: 'QuotaGranted',
          data: { userId: USER, amount: 10_000, reason: 'topup' },
        },
        {
          id: 'budget-1',
          type: 'BudgetSet',
          data: {
            userId: USER,
            periodQuota: DAILY,
            period: 'day',
            previous: { periodQuota: 0, period: '' },
          },
        },
      ],
      'no_stream',
    );
    await setup.append(
      `token-${BUDGETED_TOKEN}`,
      [
        {
          id: 'token-b',
          type: 'TokenCreated',
          data: tokenData({
            tokenId: BUDGETED_TOKEN,
            userId: USER,
            unlimitedQuota: true,
            periodQuota: DAILY / 2,
            period: 'day',
          }),
        },
      ],
      'no_stream',
    );
    await setup.close();
  });
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((node) => node.stop().catch(() => undefined)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const node = async () => {
    const started = await new Node(file, 3_000, 3_000).start();
    nodes.push(started);
    return started;
  };
  const budgetLeased = async (store: SqliteEventStore, stream: string) =>
    (await store.readStream(stream))
      .filter((event) => event.type === 'BalanceLeased' && 'window' in (event.data as object))
      .map((event) => event.data as { amount: number; expiresAt: number; window: { end: number } });

  it("two processes together never pass a user's daily budget", async () => {
    const [a, b] = [await node(), await node()];
    const spent = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).spend(`u${i}`, CALL)),
    );
    // The balance would cover 100 calls, the budget 10: exactly 10, whoever holds the lease.
    expect(spent.filter(Boolean)).toHaveLength(10);
    const leases = await budgetLeased(a.store, `billing-${USER}`);
    expect(leases.length).toBeGreaterThan(0);
    expect(leases.reduce((sum, lease) => sum + lease.amount, 0)).toBeLessThanOrEqual(DAILY);
    // A budget lease never outlives its window.
    for (const lease of leases) expect(lease.expiresAt).toBeLessThanOrEqual(lease.window.end);
    await a.appender.drained();
    await b.appender.drained();
    // Each book learns the other's receipts through its own subscription, in its own time.
    await until(() => a.book.periodUse('user', USER, 'day').used === DAILY, "A saw B's receipts");
    await until(() => b.book.periodUse('user', USER, 'day').used === DAILY, "B saw A's receipts");
  });

  it("a token's budget is leased on its own stream and holds across processes", async () => {
    const [a, b] = [await node(), await node()];
    a.tokenId = b.tokenId = BUDGETED_TOKEN;
    const spent = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).spend(`t${i}`, CALL)),
    );
    expect(spent.filter(Boolean)).toHaveLength(5); // the token's budget (500) binds first
    const leases = await budgetLeased(a.store, `token-${BUDGETED_TOKEN}`);
    expect(leases.reduce((sum, lease) => sum + lease.amount, 0)).toBeLessThanOrEqual(DAILY / 2);
  });

  it('an idle budget lease is given back with what it spent, and the rest is free to the other', async () => {
    const [a, b] = [await node(), await node()];
    for (const i of [1, 2, 3, 4]) expect(await a.spend(`a${i}`, CALL)).toBe(true);
    expect(await b.spend('b0', CALL)).toBe(false); // A leased the whole day's budget
    await until(
      async () =>
        (await a.store.readStream(`billing-${USER}`)).some(
          (event) => event.type === 'BalanceLeaseReturned' && 'window' in (event.data as object),
        ),
      'the budget lease returned',
    );
    // B refused b0 with what it saw then; it asks again once it has seen the return.
    await until(
      () =>
        b.book.periodUse('user', USER, 'day').used === 4 * CALL &&
        Object.keys(b.book.leaseView('user-budget', USER, 0).seen).length === 0,
      "B has seen A's receipts and return",
    );
    const served = [];
    for (const i of [1, 2, 3, 4, 5, 6, 7]) served.push(await b.spend(`b${i}`, CALL));
    expect(served).toEqual([true, true, true, true, true, true, false]);
  });
});
