import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PageOf, RedemptionDto, UserDto } from '@tollgate/contracts';
import { SYSTEM_ACTOR, redemptionDecider, type RequestRelayed } from '@tollgate/domain';
import { BalanceBook } from '../../apps/gateway/src/billing/balance-book';
import { StreamCommands } from '../../apps/gateway/src/infrastructure/stream-commands';
import { UnpaidRedemptions } from '../../apps/gateway/src/redemptions/redemption-credit';
import { UsageAppender } from '../../apps/gateway/src/usage/usage-appender';
import { usageReceipt as receiptWith } from '@tollgate/testing/usage-receipt';
import {
  allSqliteText,
  readStoredEvents,
  sqliteFileBytes,
  waitUntil,
} from '../support/e2e-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

/** Σ of a user's balance events: credits on billing-<id> minus the usage receipts. */
function balanceFromEvents(dataDir: string, userId: number): number {
  let balance = 0;
  for (const e of readStoredEvents(dataDir, { streamId: `billing-${userId}` })) {
    const d = e.data as { amount?: number; delta?: number };
    if (e.type === 'QuotaGranted' || e.type === 'AffQuotaTransferred') balance += d.amount ?? 0;
    if (e.type === 'QuotaAdjusted') balance += d.delta ?? 0;
  }
  for (const e of readStoredEvents(dataDir, { type: 'RequestRelayed' }))
    if ((e.data as { userId: number }).userId === userId) balance -= e.data['quota'] as number;
  return balance;
}

function usageReceipt(userId: number, quota: number): RequestRelayed['data'] {
  return receiptWith({
    userId,
    tokenId: 0,
    tokenName: '',
    endpoint: '/pg/chat/completions',
    completionTokens: 10,
    quota,
    ip: '',
  });
}

describe('redemption codes and the wallet', () => {
  let t: TestApp;
  let root: ConsoleClient;

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
  });
  afterAll(() => t.close());

  async function createCodes(name: string, quota: number, count = 1): Promise<string[]> {
    const res = await root.post('/api/redemption/', { name, quota, count });
    expect(res.body).toMatchObject({ success: true });
    return res.body.data as string[];
  }
  async function codeByKey(key: string): Promise<RedemptionDto> {
    const page = (await root.get('/api/redemption/?p=1&page_size=100')).body
      .data as PageOf<RedemptionDto>;
    const found = page.items.find((c) => c.key === key);
    if (!found) throw new Error('code not listed');
    return found;
  }
  async function quotaOf(client: ConsoleClient): Promise<number> {
    return ((await client.get('/api/user/self')).body.data as UserDto).quota;
  }

  it('creates a batch, lists, searches, gets, edits, toggles and deletes codes', async () => {
    const keys = await createCodes('batch', 1234, 3);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    const page = (await root.get('/api/redemption/?p=1&page_size=2')).body
      .data as PageOf<RedemptionDto>;
    expect(page).toMatchObject({ page: 1, page_size: 2 });
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.items).toHaveLength(2);
    const code = await codeByKey(keys[0]!);
    expect(code).toMatchObject({
      name: 'batch',
      quota: 1234,
      status: 1,
      used_user_id: 0,
      redeemed_time: 0,
      user_id: root.userId,
    });
    const byName = (await root.get('/api/redemption/search?keyword=batc')).body
      .data as PageOf<RedemptionDto>;
    expect(byName.items.map((c) => c.id)).toContain(code.id);
    const byId = (await root.get(`/api/redemption/search?keyword=${code.id}`)).body
      .data as PageOf<RedemptionDto>;
    expect(byId.items.map((c) => c.id)).toContain(code.id);

    const edited = await root.put('/api/redemption/', { id: code.id, name: 'renamed', quota: 99 });
    expect(edited.body).toMatchObject({ success: true, data: { name: 'renamed', quota: 99 } });
    const off = await root.put('/api/redemption/?status_only=true', { id: code.id, status: 2 });
    expect(off.body).toMatchObject({ success: true, data: { status: 2 } });
    expect((await root.get(`/api/redemption/${code.id}`)).body.data).toMatchObject({ status: 2 });
    expect((await root.delete(`/api/redemption/${code.id}/`)).body).toMatchObject({
      success: true,
    });
    expect((await root.get(`/api/redemption/${code.id}`)).body).toEqual({
      success: false,
      message: '兑换码不存在',
    });
  });

  it('refuses bad input and changes nothing', async () => {
    const before = readStoredEvents(t.dataDir).length;
    for (const body of [
      { name: '', quota: 1 },
      { name: 'n'.repeat(21), quota: 1 },
      { name: 'x', quota: 0 },
      { name: 'x', quota: 1, count: 101 },
      { name: 'x', quota: 1, count: 0 },
      { name: 'x', quota: '1e3' },
    ]) {
      const res = await root.post('/api/redemption/', body);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
    }
    expect(readStoredEvents(t.dataDir).length).toBe(before);
  });

  it('credits the redeemer once; a used or disabled code credits nothing', async () => {
    const user = await registerAndLogin(t.url, 'wallet1');
    const start = await quotaOf(user);
    const [key] = await createCodes('gift', 5000);
    const res = await user.post('/api/user/topup', { key });
    expect(res.body).toEqual({ success: true, message: '', data: 5000 });
    expect(await quotaOf(user)).toBe(start + 5000);
    const code = await codeByKey(key!);
    expect(code).toMatchObject({ status: 3, used_user_id: user.userId });
    expect(code.redeemed_time).toBeGreaterThan(0);

    expect((await user.post('/api/user/topup', { key })).body).toEqual({
      success: false,
      message: '该兑换码已被使用',
    });
    const [off] = await createCodes('off', 777);
    const offCode = await codeByKey(off!);
    await root.put('/api/redemption/?status_only=true', { id: offCode.id, status: 2 });
    expect((await user.post('/api/user/topup', { key: off })).body).toEqual({
      success: false,
      message: '该兑换码已被禁用',
    });
    expect((await user.post('/api/user/topup', { key: 'nope' })).body).toEqual({
      success: false,
      message: '无效的兑换码',
    });
    expect((await user.post('/api/user/topup', { key: '  ' })).body).toEqual({
      success: false,
      message: '请输入兑换码！',
    });
    expect(await quotaOf(user)).toBe(start + 5000);
    // Used codes cannot be edited or re-enabled.
    expect((await root.put('/api/redemption/', { id: code.id, name: 'x', quota: 1 })).body).toEqual(
      { success: false, message: '只能编辑未使用的兑换码' },
    );
    // The credit names the code and is caused by the redemption event.
    const [credit] = readStoredEvents(t.dataDir, {
      streamId: `billing-${user.userId}`,
      type: 'QuotaGranted',
    }).filter((e) => (e.data as { reason: string }).reason === 'redemption');
    expect(credit!.data).toMatchObject({ amount: 5000, reference: `redemption-${code.id}` });
    const [redeemedEvent] = readStoredEvents(t.dataDir, {
      streamId: `redemption-${code.id}`,
      type: 'RedemptionRedeemed',
    });
    expect(credit!.metadata).toMatchObject({ causationId: redeemedEvent!.id });
  });

  it('100 concurrent redeems of one code by 100 users credit exactly one', async () => {
    const users = await Promise.all(
      Array.from({ length: 100 }, (_, i) => registerAndLogin(t.url, `racer${i}`)),
    );
    const before = await Promise.all(users.map(quotaOf));
    const [key] = await createCodes('race', 4242);
    const answers = await Promise.all(users.map((u) => u.post('/api/user/topup', { key })));
    const winners = answers.filter((r) => r.body.success === true);
    expect(winners).toHaveLength(1);
    expect(answers.filter((r) => r.body.message === '该兑换码已被使用')).toHaveLength(99);
    const after = await Promise.all(users.map(quotaOf));
    const gained = after.map((q, i) => q - before[i]!).filter((d) => d !== 0);
    expect(gained).toEqual([4242]);
    const code = await codeByKey(key!);
    expect(
      readStoredEvents(t.dataDir, {
        streamId: `redemption-${code.id}`,
        type: 'RedemptionRedeemed',
      }),
    ).toHaveLength(1);
  });

  it('refuses a stale admin quota edit and accepts a current one (old clients still work)', async () => {
    const user = await registerAndLogin(t.url, 'edited');
    const shown = await quotaOf(user);
    const [key] = await createCodes('meanwhile', 300);
    await user.post('/api/user/topup', { key });
    const stale = await root.put('/api/user/', {
      id: user.userId,
      quota: 10,
      expected_quota: shown,
    });
    expect(stale.body.success).toBe(false);
    expect(stale.body.message).toContain('额度已发生变化');
    expect(await quotaOf(user)).toBe(shown + 300);
    const current = await root.put('/api/user/', {
      id: user.userId,
      quota: 10,
      expected_quota: shown + 300,
    });
    expect(current.body).toMatchObject({ success: true });
    expect(await quotaOf(user)).toBe(10);
    expect((await root.put('/api/user/', { id: user.userId, quota: 25 })).body.success).toBe(true);
    expect(await quotaOf(user)).toBe(25);
  });

  it('never stores or pushes a code in clear', async () => {
    const [key] = await createCodes('secret', 1);
    expect(allSqliteText(join(t.dataDir, 'events.sqlite'))).not.toContain(key);
    expect(sqliteFileBytes(join(t.dataDir, 'events.sqlite')).includes(key!)).toBe(false);
    expect(sqliteFileBytes(join(t.dataDir, 'read.sqlite')).includes(key!)).toBe(false);
  });

  it('balances equal the sum of their events after a restart and after deleting the read store', async () => {
    const user = await registerAndLogin(t.url, 'persist');
    const [a, b] = await createCodes('persist', 1111, 2);
    await user.post('/api/user/topup', { key: a });
    await user.post('/api/user/topup', { key: b });
    await root.put('/api/user/', { id: user.userId, quota: 5000 });
    // Two relayed requests, reserved and settled in the book, then their receipts appended.
    const book = t.app.get(BalanceBook);
    for (const cost of [30, 20]) {
      const receipt = usageReceipt(user.userId, cost);
      const reserved = book.reserve(receipt.requestId, user.userId, 0, 100);
      if (!reserved.ok) throw new Error('refused');
      expect(book.settle(reserved.reservation, cost)).toBe(cost);
      await t.app
        .get(UsageAppender)
        .append(receipt, { actor: SYSTEM_ACTOR, correlationId: receipt.requestId });
    }
    await waitUntil(
      async () =>
        ((await root.get(`/api/user/${user.userId}`)).body.data as UserDto).quota === 4950,
      'the receipts in the users read model',
    );
    const expected = balanceFromEvents(t.dataDir, user.userId);
    expect(expected).toBe(4950);
    expect(book.userBalance(user.userId)).toBe(4950);
    const ids = [user.userId, root.userId];
    const sums = ids.map((id) => balanceFromEvents(t.dataDir, id));
    await t.close();

    for (const wipe of [false, true]) {
      if (wipe) rmSync(join(t.dataDir, 'read.sqlite'), { force: true });
      if (wipe) rmSync(join(t.dataDir, 'read.sqlite-wal'), { force: true });
      if (wipe) rmSync(join(t.dataDir, 'read.sqlite-shm'), { force: true });
      t = await startTestApp({ dataDir: t.dataDir });
      const book = t.app.get(BalanceBook);
      root = await loginRoot(t.url);
      for (const [i, id] of ids.entries()) {
        expect(book.userBalance(id)).toBe(sums[i]);
        const doc = (await root.get(`/api/user/${id}`)).body.data as UserDto;
        expect(doc.quota).toBe(sums[i]);
      }
      await t.close();
    }
    t = await startTestApp({ dataDir: t.dataDir });
  });
});

describe('guessing codes', () => {
  it('is rate-limited per IP like login', async () => {
    const t = await startTestApp({ env: { CRITICAL_RATE_LIMIT: '3' } });
    try {
      const user = await registerAndLogin(t.url, 'guesser');
      const answers = [];
      for (let i = 0; i < 5; i += 1)
        answers.push(await user.post('/api/user/topup', { key: `guess${i}` }));
      expect(answers.slice(0, 2).map((r) => r.body.message)).toEqual([
        '无效的兑换码',
        '无效的兑换码',
      ]);
      const last = answers[answers.length - 1]!;
      expect(last.status).toBe(429);
      expect(last.body).toEqual({ success: false, message: '请求次数过多，请稍后再试！' });
    } finally {
      await t.close();
    }
  });
});

describe('a crash between "code redeemed" and "credit appended"', () => {
  it('is paid at the next start, once, however often the process restarts', async () => {
    let t = await startTestApp();
    let running = true;
    try {
      const root = await loginRoot(t.url);
      const user = await registerAndLogin(t.url, 'unpaid');
      const start = ((await user.get('/api/user/self')).body.data as UserDto).quota;
      const [key] = (await root.post('/api/redemption/', { name: 'unpaid', quota: 6000 })).body
        .data as string[];
      const page = (await root.get('/api/redemption/?p=1&page_size=100')).body
        .data as PageOf<RedemptionDto>;
      const code = page.items.find((c) => c.key === key)!;
      // The top-up's first append alone, as a process killed right after it leaves the log.
      const redeemed = await t.app
        .get(StreamCommands)
        .execute(
          `redemption-${code.id}`,
          redemptionDecider,
          { type: 'RedeemCode', userId: user.userId },
          { actor: SYSTEM_ACTOR, correlationId: 'redeem-before-crash', lang: 'en' },
        );
      expect(redeemed.events.map((e) => e.type)).toEqual(['RedemptionRedeemed']);
      const credits = () =>
        readStoredEvents(t.dataDir, {
          streamId: `billing-${user.userId}`,
          type: 'QuotaGranted',
        }).filter((e) => e.data['reference'] === `redemption-${code.id}`);
      expect(credits()).toHaveLength(0);
      expect(
        t.app
          .get(UnpaidRedemptions)
          .list()
          .map((u) => u.reference),
      ).toEqual([`redemption-${code.id}`]);
      await t.close();
      running = false;

      for (let restart = 0; restart < 2; restart += 1) {
        t = await startTestApp({ dataDir: t.dataDir });
        running = true;
        const again = await new ConsoleClient(t.url).login('unpaid', 'password123');
        expect(((await again.get('/api/user/self')).body.data as UserDto).quota).toBe(start + 6000);
        expect(t.app.get(UnpaidRedemptions).list()).toEqual([]);
        const paid = credits();
        expect(paid).toHaveLength(1);
        expect(paid[0]!.data).toMatchObject({ amount: 6000, reason: 'redemption' });
        const [redeemedEvent] = readStoredEvents(t.dataDir, {
          streamId: `redemption-${code.id}`,
          type: 'RedemptionRedeemed',
        });
        expect(paid[0]!.metadata).toMatchObject({
          actor: SYSTEM_ACTOR,
          causationId: redeemedEvent!.id,
          correlationId: 'redeem-before-crash',
        });
        // The wallet's log shows the top-up like any other.
        const logs = (await again.get('/api/log/self/?type=1')).body.data as PageOf<{
          quota: number;
        }>;
        expect(logs.items.map((row) => row.quota)).toEqual([6000]);
        await t.close();
        running = false;
      }
    } finally {
      if (running) await t.close();
    }
  });
});
