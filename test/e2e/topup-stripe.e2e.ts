import { join } from 'node:path';
import Stripe from 'stripe';
import request from 'supertest';
import type { PageOf, StatusDto, TopUpOrderDto, UserDto } from '@tollgate/contracts';
import { allSqliteText, readStoredEvents } from '../support/e2e-helpers';
import { checkoutEvent, startMockStripe, type MockStripe } from '../support/mock-stripe';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const API_SECRET = 'sk_test_e2eSecretKeyNeverShown';
const WEBHOOK_SECRET = 'whsec_e2eWebhookSecretNeverShown';
const PRICE_ID = 'price_e2e_one_dollar';
/** QuotaPerUnit 500000: (10 − 3 % − $0.30) × 500000 = 9.40 × 500000. */
const CREDIT_FOR_10 = 4_700_000;

/** Signs like Stripe, with the library's own test helper. */
const signer = new Stripe('sk_test_signer');
const sign = (payload: string, secret = WEBHOOK_SECRET) =>
  signer.webhooks.generateTestHeaderString({ payload, secret });

describe('Stripe Checkout top-up', () => {
  let t: TestApp;
  let mock: MockStripe;
  let root: ConsoleClient;
  let user: ConsoleClient;

  beforeAll(async () => {
    mock = await startMockStripe();
    t = await startTestApp({ env: { STRIPE_API_BASE: mock.url } });
    root = await loginRoot(t.url);
    user = await registerAndLogin(t.url, 'stripe_buyer');
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const setOption = async (key: string, value: string) => {
    const res = await root.put('/api/option/', { key, value });
    expect(res.body).toMatchObject({ success: true });
  };
  const quotaOf = async (client: ConsoleClient) =>
    ((await client.get('/api/user/self')).body.data as UserDto).quota;
  const ownOrder = async (tradeNo: string) => {
    const page = (await user.get('/api/user/topup/self?p=1&page_size=100')).body
      .data as PageOf<TopUpOrderDto>;
    return page.items.find((o) => o.trade_no === tradeNo);
  };
  const postWebhook = (payload: string, signature?: string) => {
    const req = request(t.url)
      .post('/api/stripe/webhook')
      .set('content-type', 'application/json; charset=utf-8');
    if (signature !== undefined) req.set('stripe-signature', signature);
    return req.send(payload);
  };
  /** Opens a session for `amount` and answers the mock's record of it. */
  const checkout = async (amount: number) => {
    const res = await user.post('/api/user/createStripe', { amount });
    expect(res.body).toMatchObject({ success: true });
    const session = mock.sessions.at(-1)!;
    expect(res.body.data).toBe(session.url);
    return session;
  };

  it('is off until the key, the webhook secret and the price are set', async () => {
    const status = (await request(t.url).get('/api/status')).body.data as StatusDto;
    expect(status).toMatchObject({
      enable_stripe_topup: false,
      stripe_unit_price: 8,
      stripe_min_topup: 1,
    });
    const res = await user.post('/api/user/createStripe', { amount: 10 });
    expect(res.body).toEqual({ success: false, message: '管理员未开启 Stripe 充值' });
    expect(mock.calls).toHaveLength(0);

    await setOption('ServerAddress', 'https://gateway.example');
    await setOption('StripeApiSecret', API_SECRET);
    await setOption('StripeWebhookSecret', WEBHOOK_SECRET);
    await setOption('StripePriceId', PRICE_ID);
    await setOption('StripeUnitPrice', '1');
    await setOption('StripeMinTopUp', '2');
    const on = (await request(t.url).get('/api/status')).body.data as StatusDto;
    expect(on).toMatchObject({
      enable_stripe_topup: true,
      stripe_unit_price: 1,
      stripe_min_topup: 2,
    });
    // Sealed like every secret option: never listed back.
    const listed = JSON.stringify((await root.get('/api/option/')).body);
    expect(listed).not.toContain(API_SECRET);
    expect(listed).not.toContain(WEBHOOK_SECRET);
  });

  it('quotes the price and refuses amounts outside the bounds in the envelope', async () => {
    expect((await user.post('/api/user/stripe/amount', { amount: 10 })).body).toEqual({
      success: true,
      message: '',
      data: '10.00',
    });
    for (const path of ['/api/user/stripe/amount', '/api/user/createStripe']) {
      expect((await user.post(path, { amount: 1 })).body).toEqual({
        success: false,
        message: '充值数量不能小于 2',
      });
      expect((await user.post(path, { amount: 10_001 })).body).toEqual({
        success: false,
        message: '充值数量不能大于 10000',
      });
      expect((await user.post(path, { amount: 2.5 })).body).toMatchObject({ success: false });
      expect((await user.post(path, { amount: '10' })).body).toMatchObject({ success: false });
    }
    expect(mock.calls).toHaveLength(0);
  });

  it('creates the Checkout session through the library: price × amount, the order as reference', async () => {
    const session = await checkout(10);
    const call = mock.calls.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(call.authorization).toBe(`Bearer ${API_SECRET}`);
    expect(call.idempotencyKey).toBe(`tollgate-topup-${session.clientReferenceId}`);
    expect(call.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price]': PRICE_ID,
      'line_items[0][quantity]': '10',
      client_reference_id: session.clientReferenceId,
      'metadata[trade_no]': session.clientReferenceId,
      'metadata[user_id]': String(user.userId),
      success_url: 'https://gateway.example/topup?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://gateway.example/topup',
    });
    const order = await ownOrder(session.clientReferenceId);
    expect(order).toMatchObject({
      provider: 'stripe',
      payment_method: 'stripe',
      status: 'pending',
      amount: 10,
      money: 10,
      quota: CREDIT_FOR_10,
      credited: false,
    });
    // new-api's route answers the same link inside data.pay_link.
    const pay = await user.post('/api/user/stripe/pay', { amount: 3, payment_method: 'stripe' });
    expect(pay.body).toMatchObject({
      success: true,
      data: { pay_link: mock.sessions.at(-1)!.url },
    });
  });

  it('credits a signed checkout.session.completed once, even sent 10 times at once', async () => {
    const session = await checkout(10);
    const before = await quotaOf(user);
    const payload = checkoutEvent(session, { amountTotal: 1000 });
    const first = await postWebhook(payload, sign(payload));
    expect(first.status).toBe(200);
    expect(await quotaOf(user)).toBe(before + CREDIT_FOR_10);

    const replays = await Promise.all(
      Array.from({ length: 10 }, () => postWebhook(payload, sign(payload))),
    );
    for (const res of replays) expect(res.status).toBe(200);
    expect(await quotaOf(user)).toBe(before + CREDIT_FOR_10);

    const tradeNo = session.clientReferenceId;
    const paid = readStoredEvents(t.dataDir, {
      streamId: `topup-${tradeNo}`,
      type: 'TopUpOrderPaid',
    });
    expect(paid).toHaveLength(1);
    expect(paid[0]!.data).toMatchObject({ providerReference: session.id, quota: CREDIT_FOR_10 });
    const grants = readStoredEvents(t.dataDir, {
      streamId: `billing-${user.userId}`,
      type: 'QuotaGranted',
    }).filter((e) => e.data['reference'] === `topup-${tradeNo}`);
    expect(grants).toHaveLength(1);
    expect(grants[0]!.data).toMatchObject({ reason: 'topup', amount: CREDIT_FOR_10 });
    expect(await ownOrder(tradeNo)).toMatchObject({ status: 'success', credited: true });
  });

  it('ten concurrent first deliveries credit once', async () => {
    const session = await checkout(10);
    const before = await quotaOf(user);
    const payload = checkoutEvent(session, { amountTotal: 1000 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => postWebhook(payload, sign(payload))),
    );
    for (const res of results) expect(res.status).toBe(200);
    expect(await quotaOf(user)).toBe(before + CREDIT_FOR_10);
    const grants = readStoredEvents(t.dataDir, { type: 'QuotaGranted' }).filter(
      (e) => e.data['reference'] === `topup-${session.clientReferenceId}`,
    );
    expect(grants).toHaveLength(1);
  });

  it('refuses a bad, missing or foreign signature (400) and credits nothing', async () => {
    const session = await checkout(10);
    const before = await quotaOf(user);
    const payload = checkoutEvent(session, { amountTotal: 1000 });
    const tampered = payload.replace('"amount_total":1000', '"amount_total":1');
    const refusals = [
      await postWebhook(payload, sign(payload, 'whsec_someone_else')),
      await postWebhook(tampered, sign(payload)),
      await postWebhook(payload),
      await postWebhook(payload, 't=1,v1=deadbeef'),
      await postWebhook(payload, sign(payload).replace(/t=\d+/, 't=1000000000')),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false });
    }
    expect(await quotaOf(user)).toBe(before);
    expect(await ownOrder(session.clientReferenceId)).toMatchObject({ status: 'pending' });
    expect(
      readStoredEvents(t.dataDir, { streamId: `topup-${session.clientReferenceId}` }),
    ).toHaveLength(1);
  });

  it('answers 200 and changes nothing for unknown sessions, unpaid sessions and other events', async () => {
    const before = await quotaOf(user);
    const eventsBefore = readStoredEvents(t.dataDir).length;
    const session = await checkout(10);
    const afterCheckout = readStoredEvents(t.dataDir).length;
    const payloads = [
      checkoutEvent({
        id: 'cs_test_unknown',
        clientReferenceId: 'USR1NOnotAnOrder1',
        metadata: {},
      }),
      checkoutEvent({ id: 'cs_test_odd', clientReferenceId: '../billing-1', metadata: {} }),
      checkoutEvent({ id: 'cs_test_none', clientReferenceId: '', metadata: {} }),
      checkoutEvent(session, { paymentStatus: 'unpaid' }),
      checkoutEvent(session, { type: 'payment_intent.succeeded' }),
    ];
    for (const payload of payloads) {
      const res = await postWebhook(payload, sign(payload));
      expect(res.status).toBe(200);
    }
    expect(await quotaOf(user)).toBe(before);
    expect(readStoredEvents(t.dataDir).length - afterCheckout).toBe(0);
    expect(afterCheckout).toBeGreaterThan(eventsBefore);

    // Expired: the order is closed and a late completion is still honoured (the money arrived).
    const expired = checkoutEvent(session, { type: 'checkout.session.expired', status: 'expired' });
    expect((await postWebhook(expired, sign(expired))).status).toBe(200);
    expect(await ownOrder(session.clientReferenceId)).toMatchObject({ status: 'expired' });
    const late = checkoutEvent(session, { amountTotal: 1000 });
    expect((await postWebhook(late, sign(late))).status).toBe(200);
    expect(await quotaOf(user)).toBe(before + CREDIT_FOR_10);
    expect(await ownOrder(session.clientReferenceId)).toMatchObject({ status: 'success' });
  });

  it("fails the order when Stripe refuses the session, without echoing Stripe's text", async () => {
    mock.failNext(401, {
      type: 'invalid_request_error',
      code: 'api_key_expired',
      message: `Expired API Key provided: ${API_SECRET}`,
    });
    const res = await user.post('/api/user/createStripe', { amount: 5 });
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain('拉起支付失败');
    expect(res.body.message).not.toContain(API_SECRET);
    const orders = (await user.get('/api/user/topup/self?p=1&page_size=100')).body
      .data as PageOf<TopUpOrderDto>;
    expect(orders.items.find((o) => o.amount === 5)).toMatchObject({ status: 'failed' });
  });

  it('keeps the Stripe secrets out of the log in clear', () => {
    const text = allSqliteText(join(t.dataDir, 'events.sqlite'));
    expect(text).not.toContain(API_SECRET);
    expect(text).not.toContain(WEBHOOK_SECRET);
  });
});
