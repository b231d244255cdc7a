import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import request from 'supertest';
import type { PageOf, TopUpOrderDto, UserDto } from '@tollgate/contracts';
import { readStoredEvents } from '../support/e2e-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const EPAY_KEY = 'epay-merchant-key-e2e';
const EPAY_ID = '1001';

/** Epay's rule, written here independently as the gateway would receive it from a real Epay. */
function signLikeEpay(params: Record<string, string>, key: string): string {
  const text = Object.entries(params)
    .filter(([k, v]) => k !== 'sign' && k !== 'sign_type' && v !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return createHash('md5').update(`${text}${key}`).digest('hex');
}

function notifyParams(
  tradeNo: string,
  money: string,
  over: Record<string, string> = {},
  key = EPAY_KEY,
): Record<string, string> {
  const params: Record<string, string> = {
    pid: EPAY_ID,
    trade_no: `EP${tradeNo}`,
    out_trade_no: tradeNo,
    type: 'alipay',
    name: 'TUC10',
    money,
    trade_status: 'TRADE_SUCCESS',
    ...over,
  };
  return { ...params, sign: signLikeEpay(params, key), sign_type: 'MD5' };
}

describe('online top-up: Epay orders credited exactly once', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let alice: ConsoleClient;
  let bob: ConsoleClient;

  const quotaOf = async (client: ConsoleClient) =>
    ((await client.get('/api/user/self')).body.data as UserDto).quota;
  const grantsOf = (userId: number) =>
    readStoredEvents(t.dataDir, { streamId: `billing-${userId}`, type: 'QuotaGranted' }).filter(
      (e) => e.data['reason'] === 'topup',
    );
  const notifyGet = (params: Record<string, string>) =>
    request(t.url).get('/api/user/epay/notify').query(params);
  const notifyPost = (params: Record<string, string>) =>
    request(t.url)
      .post('/api/user/epay/notify')
      .type('form')
      .send(new URLSearchParams(params).toString());

  async function setOption(key: string, value: string) {
    const res = await root.put('/api/option/', { key, value });
    expect([key, res.body]).toEqual([key, expect.objectContaining({ success: true })]);
  }

  async function pay(client: ConsoleClient, amount: number) {
    const res = await client.post('/api/user/pay', { amount, payment_method: 'alipay' });
    expect(res.body).toMatchObject({ success: true, message: 'success' });
    return res.body as { data: Record<string, string>; url: string };
  }

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
    alice = await registerAndLogin(t.url, 'alicepay');
    bob = await registerAndLogin(t.url, 'bobpay');
  });
  afterAll(() => t.close());

  it('refuses to open an Epay order before the administrator configured payment', async () => {
    const res = await alice.post('/api/user/pay', { amount: 10, payment_method: 'alipay' });
    expect(res.body).toEqual({ success: false, message: '当前管理员未配置支付信息' });
    expect(readStoredEvents(t.dataDir, { type: 'TopUpOrderCreated' })).toHaveLength(0);
  });

  it('quotes the money and opens a signed order', async () => {
    await setOption('ServerAddress', 'https://gw.example.com');
    await setOption('PayAddress', 'https://pay.example.com/');
    await setOption('EpayId', EPAY_ID);
    await setOption('EpayKey', EPAY_KEY);
    await setOption('Price', '7.5');
    await setOption('MinTopUp', '2');

    expect((await alice.post('/api/user/amount', { amount: 10 })).body).toEqual({
      success: true,
      message: '',
      data: '75.00',
    });
    expect((await alice.post('/api/user/amount', { amount: 1 })).body).toEqual({
      success: false,
      message: '充值数量不能小于 2',
    });
    for (const amount of [0, -3, 1.5, 10_000_001])
      expect((await alice.post('/api/user/amount', { amount })).body.success).toBe(false);
    expect(
      (await alice.post('/api/user/pay', { amount: 10, payment_method: 'bad method!' })).body,
    ).toEqual({ success: false, message: '支付方式不存在' });

    const { data, url } = await pay(alice, 10);
    expect(url).toBe('https://pay.example.com/submit.php');
    expect(data).toMatchObject({
      pid: EPAY_ID,
      type: 'alipay',
      money: '75.00',
      name: 'TUC10',
      notify_url: 'https://gw.example.com/api/user/epay/notify',
      return_url: 'https://gw.example.com/topup',
      sign_type: 'MD5',
    });
    expect(data['out_trade_no']).toMatch(new RegExp(`^USR${alice.userId}NO[A-Za-z0-9]{6}\\d+$`));
    expect(data['sign']).toBe(signLikeEpay(data, EPAY_KEY));
    // The key never leaves: not in the answer, not in any event.
    expect(JSON.stringify(data)).not.toContain(EPAY_KEY);
    const created = readStoredEvents(t.dataDir, { streamId: `topup-${data['out_trade_no']}` });
    expect(created.map((e) => e.type)).toEqual(['TopUpOrderCreated']);
    expect(created[0]!.data).toMatchObject({
      userId: alice.userId,
      amount: 10,
      money: 75,
      quota: 5_000_000,
      groupRatio: 1,
      price: 7.5,
    });
    const all = JSON.stringify(readStoredEvents(t.dataDir));
    expect(all).not.toContain(EPAY_KEY);
  });

  it('uses CustomCallbackAddress for the notify URL when set', async () => {
    await setOption('CustomCallbackAddress', 'https://callback.example.com');
    const { data } = await pay(bob, 2);
    expect(data['notify_url']).toBe('https://callback.example.com/api/user/epay/notify');
    expect(data['return_url']).toBe('https://gw.example.com/topup');
    await setOption('CustomCallbackAddress', '');
  });

  it('credits once for a valid notify, and once for 20 concurrent ones', async () => {
    const before = await quotaOf(alice);
    const { data } = await pay(alice, 10);
    const tradeNo = data['out_trade_no']!;
    const params = notifyParams(tradeNo, '75.00');

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? notifyPost(params) : notifyGet(params))),
    );
    for (const res of answers) expect([res.status, res.text]).toEqual([200, 'success']);
    expect(await quotaOf(alice)).toBe(before + 5_000_000);
    const grants = grantsOf(alice.userId).filter((e) => e.data['reference'] === `topup-${tradeNo}`);
    expect(grants).toHaveLength(1);
    expect(grants[0]!.data).toMatchObject({ amount: 5_000_000, reason: 'topup' });
    expect(
      readStoredEvents(t.dataDir, { streamId: `topup-${tradeNo}` }).map((e) => e.type),
    ).toEqual(['TopUpOrderCreated', 'TopUpOrderPaid']);

    // A replay later still answers success and credits nothing.
    expect((await notifyGet(params)).text).toBe('success');
    expect(await quotaOf(alice)).toBe(before + 5_000_000);

    const own = (await alice.get(`/api/user/topup/self?keyword=${tradeNo}`)).body
      .data as PageOf<TopUpOrderDto>;
    expect(own.items).toEqual([
      expect.objectContaining({
        trade_no: tradeNo,
        status: 'success',
        credited: true,
        provider_reference: `EP${tradeNo}`,
        money: 75,
        quota: 5_000_000,
        completed_by: 0,
      }),
    ]);
  });

  it('credits nothing for a wrong signature, money, status or an unknown order', async () => {
    const before = await quotaOf(alice);
    const { data } = await pay(alice, 10);
    const tradeNo = data['out_trade_no']!;
    const events = readStoredEvents(t.dataDir).length;
    const warned: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'warn').mockImplementation((...args: unknown[]) => {
      warned.push(args.map(String).join(' '));
    });
    const bad = [
      notifyParams(tradeNo, '75.00', {}, 'wrong-key'),
      { ...notifyParams(tradeNo, '75.00'), money: '0.01' }, // altered after signing
      notifyParams(tradeNo, '0.01'), // signed, but not the order's money
      notifyParams(tradeNo, '75.00', { trade_status: 'WAIT_BUYER_PAY' }),
      notifyParams('USR1NOnosuch1', '75.00'),
      notifyParams(tradeNo, '75.00', { pid: '9999' }),
      notifyParams(tradeNo, 'NaN'),
      {},
    ];
    try {
      for (const params of bad) {
        expect((await notifyGet(params)).text).toBe('fail');
        expect((await notifyPost(params)).text).toBe('fail');
      }
    } finally {
      spy.mockRestore();
    }
    // Each refusal is logged with its trade no and reason, never the key or the signature.
    const refusals = warned.filter((line) => line.includes('refused notify'));
    expect(refusals).toHaveLength(bad.length * 2);
    expect(refusals.filter((line) => line.includes(tradeNo)).length).toBeGreaterThanOrEqual(10);
    expect(refusals.some((line) => line.includes(EPAY_KEY))).toBe(false);
    expect(readStoredEvents(t.dataDir).length).toBe(events);
    expect(await quotaOf(alice)).toBe(before);
    const own = (await alice.get(`/api/user/topup/self?keyword=${tradeNo}`)).body.data;
    expect(own.items[0]).toMatchObject({ status: 'pending', credited: false });
  });

  it('lets an administrator complete an order paid outside, once, as the actor', async () => {
    const { data } = await pay(bob, 3);
    const tradeNo = data['out_trade_no']!;
    const before = await quotaOf(bob);

    // Users cannot complete orders, their own included.
    expect((await bob.post('/api/user/topup/complete', { trade_no: tradeNo })).body).toEqual({
      success: false,
      message: '无权进行此操作，权限不足',
    });
    expect(
      (await root.post('/api/user/topup/complete', { trade_no: 'USR1NOnosuch1' })).body,
    ).toMatchObject({ success: false, message: '充值订单不存在' });

    expect((await root.post('/api/user/topup/complete', { trade_no: tradeNo })).body).toEqual({
      success: true,
      message: '',
      data: null,
    });
    expect(await quotaOf(bob)).toBe(before + 1_500_000);
    expect((await root.post('/api/user/topup/complete', { trade_no: tradeNo })).body).toMatchObject(
      { success: false, message: '订单已完成，无需补单' },
    );
    // A late callback after the manual completion credits nothing more.
    expect((await notifyGet(notifyParams(tradeNo, '22.50'))).text).toBe('success');
    expect(await quotaOf(bob)).toBe(before + 1_500_000);

    const paid = readStoredEvents(t.dataDir, { streamId: `topup-${tradeNo}` }).find(
      (e) => e.type === 'TopUpOrderPaid',
    )!;
    expect(paid.data).toMatchObject({ via: 'admin', providerReference: '' });
    expect((paid.metadata as { actor: { id: number } }).actor.id).toBe(root.userId);
    const row = (await root.get(`/api/user/topup?keyword=${tradeNo}`)).body.data.items[0];
    expect(row).toMatchObject({ status: 'success', credited: true, completed_by: root.userId });
  });

  it('lists orders: users see their own, admins filter by user, status and trade no', async () => {
    const own = (await bob.get('/api/user/topup/self?p=1&page_size=50')).body
      .data as PageOf<TopUpOrderDto>;
    expect(own.total).toBeGreaterThan(0);
    expect(own.items.every((o) => o.user_id === bob.userId)).toBe(true);
    // A user cannot reach the admin list (nor list someone else's orders through it).
    expect((await bob.get(`/api/user/topup?user_id=${alice.userId}`)).body).toEqual({
      success: false,
      message: '无权进行此操作，权限不足',
    });
    // user_id on the own list is not a filter anyone can use to read others' orders.
    const sneaky = (await bob.get(`/api/user/topup/self?user_id=${alice.userId}`)).body;
    expect(
      sneaky.success
        ? sneaky.data.items.every((o: TopUpOrderDto) => o.user_id === bob.userId)
        : true,
    ).toBe(true);

    const byUser = (await root.get(`/api/user/topup?user_id=${alice.userId}&page_size=50`)).body
      .data as PageOf<TopUpOrderDto>;
    expect(byUser.items.length).toBe(byUser.total);
    expect(byUser.items.every((o) => o.user_id === alice.userId)).toBe(true);
    const pending = (await root.get(`/api/user/topup?user_id=${alice.userId}&status=pending`)).body
      .data as PageOf<TopUpOrderDto>;
    expect(pending.items.every((o) => o.status === 'pending')).toBe(true);
    expect(pending.total).toBe(byUser.items.filter((o) => o.status === 'pending').length);
    const success = (await root.get('/api/user/topup?status=success&page_size=50')).body
      .data as PageOf<TopUpOrderDto>;
    expect(success.items.every((o) => o.status === 'success' && o.credited)).toBe(true);
    const paged = (await root.get('/api/user/topup?p=2&page_size=1')).body.data;
    expect(paged).toMatchObject({ page: 2, page_size: 1, total: expect.any(Number) });
    expect(paged.items).toHaveLength(1);
    expect((await root.get('/api/user/topup?status=bogus')).body.success).toBe(false);
  });

  it('answers that the crypto wallet has ended', async () => {
    expect((await alice.post('/api/user/verifyCrypto', { symbol: 'USDT' })).body).toEqual({
      success: false,
      message: '加密货币充值功能已于 2025-03-15 停止',
    });
  });
});
