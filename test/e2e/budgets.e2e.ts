/**
 * Periodic budgets (docs/budgets.md) through the whole app and the mock upstream: a token's and a
 * user's budget hold under 50 concurrent calls of the official SDK (no overdraft, refusals are 429
 * budget_exceeded before the upstream), the reads show the use of the period, the changes are
 * events with their actor, bad input changes nothing.
 */
import { APIError } from 'openai';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { readStoredEvents, waitUntil } from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  relaySdk,
  storedReceipts,
} from '../support/relay-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

/** A per-call price: 0.002 × 500 000 = 1000 quota a call, reserved and charged exactly. */
const PRICE_QUOTA = 1000;
const MODEL = 'gpt-4o-mini';
const hello = [{ role: 'user' as const, content: 'hello' }];

describe('budgets', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    root = await loginRoot(t.url);
    const option = async (key: string, value: string) =>
      expect((await root.put('/api/option/', { key, value })).body).toMatchObject({
        success: true,
      });
    await option('ModelPrice', JSON.stringify({ [MODEL]: 0.002 }));
    await option('QuotaForNewUser', '100000000');
    await addRelayChannel(root, t.app.get(RoutingTable), {
      type: 1,
      name: 'main',
      key: 'sk-upstream-main',
      base_url: upstream.url,
      models: MODEL,
      group: 'default',
    });
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  beforeEach(() => upstream.reset());

  /** 50 calls at once; the served count and the refusals. */
  async function fifty(key: string) {
    const sdk = relaySdk(t.url, key);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        sdk.chat.completions.create({ model: MODEL, messages: hello }),
      ),
    );
    const refused = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as unknown);
    return { served: results.filter((r) => r.status === 'fulfilled').length, refused };
  }

  function expectBudgetRefusals(refused: unknown[]) {
    for (const error of refused) {
      expect(error).toBeInstanceOf(APIError);
      const e = error as APIError;
      expect(e.status).toBe(429);
      expect(e.type).toBe('budget_exceeded');
      expect(e.code).toBe('budget_exceeded');
      const headers = e.headers as unknown as Headers | Record<string, string> | undefined;
      const retry =
        headers instanceof Headers ? headers.get('retry-after') : headers?.['retry-after'];
      expect(Number(retry)).toBeGreaterThan(0);
    }
  }

  async function waitCharged(userId: number, count: number) {
    await waitUntil(() => storedReceipts(t.dataDir, userId).length >= count, `${count} receipts`);
    const receipts = storedReceipts(t.dataDir, userId);
    return { count: receipts.length, quota: receipts.reduce((sum, r) => sum + r.quota, 0) };
  }

  it('a token with a budget for 10 calls serves exactly 10 of 50 concurrent calls', async () => {
    const web = await registerAndLogin(t.url, 'budgettoken');
    const { tokenId, key } = await createRelayToken(web, {
      name: 'capped',
      unlimited_quota: true,
      period_quota: 10 * PRICE_QUOTA,
      period: 'day',
    });
    const { served, refused } = await fifty(key);
    expect(served).toBe(10);
    expect(refused).toHaveLength(40);
    expectBudgetRefusals(refused);
    // Refused before the upstream: it saw exactly the served calls.
    expect(upstream.requestsTo('/chat/completions')).toHaveLength(10);
    expect(await waitCharged(web.userId, 10)).toEqual({ count: 10, quota: 10 * PRICE_QUOTA });

    // The message names the token's budget, its limit and the reset, in both languages.
    const call = (lang?: string) =>
      fetch(`${t.url}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer sk-${key}`,
          'content-type': 'application/json',
          ...(lang ? { 'accept-language': lang } : {}),
        },
        body: JSON.stringify({ model: MODEL, messages: hello }),
      });
    const zh = await call('zh-CN');
    expect(zh.status).toBe(429);
    const zhBody = (await zh.json()) as { error: { message: string; type: string; code: string } };
    expect(zhBody.error).toMatchObject({ type: 'budget_exceeded', code: 'budget_exceeded' });
    expect(zhBody.error.message).toMatch(/^令牌每日预算已用尽：每日最多 10000 额度，将于 .+ 重置/);
    const en = await call(); // no Accept-Language: English, as SDKs send none
    const enBody = (await en.json()) as { error: { message: string } };
    expect(enBody.error.message).toMatch(
      /^This API key reached its daily budget of 10000 quota; it resets at \d{4}-\d\d-\d\d 00:00:00 /,
    );
    const retryAfter = Number(en.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(25 * 3600);

    // The list and the token show the period's use and its end.
    await waitUntil(async () => {
      const row = (await web.get(`/api/token/${tokenId}`)).body.data as { period_used: number };
      return row.period_used === 10 * PRICE_QUOTA;
    }, 'period_used on the token');
    const list = (await web.get('/api/token/?p=0&size=10')).body.data as Array<
      Record<string, unknown>
    >;
    const row = list.find((r) => r['id'] === tokenId)!;
    expect(row).toMatchObject({
      period_quota: 10 * PRICE_QUOTA,
      period: 'day',
      period_used: 10 * PRICE_QUOTA,
    });
    const resetAt = row['period_reset_at'] as number;
    expect(resetAt).toBeGreaterThan(Date.now() / 1000);
    expect(resetAt - Date.now() / 1000).toBeLessThanOrEqual(25 * 3600);
    expect(Math.ceil(resetAt - Date.now() / 1000)).toBeGreaterThanOrEqual(retryAfter - 5);

    // The budget is part of the token's event, with its owner as actor.
    const [created] = readStoredEvents(t.dataDir, { streamId: `token-${tokenId}` });
    expect(created!.data).toMatchObject({ periodQuota: 10 * PRICE_QUOTA, period: 'day' });
    expect(created!.metadata['actor']).toMatchObject({ id: web.userId });

    // The owner raises it: served again at once; removing it: no budget.
    const raised = await web.put('/api/token/', {
      id: tokenId,
      name: 'capped',
      unlimited_quota: true,
      period_quota: 11 * PRICE_QUOTA,
      period: 'day',
    });
    expect(raised.body).toMatchObject({ success: true, data: { period_quota: 11 * PRICE_QUOTA } });
    const sdk = relaySdk(t.url, key);
    await sdk.chat.completions.create({ model: MODEL, messages: hello });
    await expect(sdk.chat.completions.create({ model: MODEL, messages: hello })).rejects.toThrow(
      /^429 This API key reached its daily budget of 11000 quota/,
    );
    const removed = await web.put('/api/token/', {
      id: tokenId,
      name: 'capped',
      unlimited_quota: true,
    });
    expect(removed.body.data).toMatchObject({ period_quota: 0, period: '', period_used: 0 });
    await sdk.chat.completions.create({ model: MODEL, messages: hello });
    const updates = readStoredEvents(t.dataDir, { streamId: `token-${tokenId}` }).filter(
      (e) => e.type === 'TokenUpdated',
    );
    expect(updates.map((e) => e.data['periodQuota'])).toEqual([11 * PRICE_QUOTA, undefined]);
  });

  it("a user's budget holds across their tokens: 5 of 50; BudgetSet names the admin", async () => {
    const web = await registerAndLogin(t.url, 'budgetuser');
    const { key } = await createRelayToken(web, { name: 'free', unlimited_quota: true });
    const set = await root.put('/api/user/', {
      id: web.userId,
      period_quota: 5 * PRICE_QUOTA,
      period: 'week',
    });
    expect(set.body).toMatchObject({ success: true });
    const events = readStoredEvents(t.dataDir, { streamId: `billing-${web.userId}` });
    const budgetSet = events.filter((e) => e.type === 'BudgetSet');
    expect(budgetSet).toHaveLength(1);
    expect(budgetSet[0]!.data).toEqual({
      userId: web.userId,
      periodQuota: 5 * PRICE_QUOTA,
      period: 'week',
      previous: { periodQuota: 0, period: '' },
    });
    expect(budgetSet[0]!.metadata['actor']).toMatchObject({ id: root.userId });

    const { served, refused } = await fifty(key);
    expect(served).toBe(5);
    expectBudgetRefusals(refused);
    const message = (refused[0] as APIError).message;
    expect(message).toContain('Your weekly budget of');
    expect(await waitCharged(web.userId, 5)).toEqual({ count: 5, quota: 5 * PRICE_QUOTA });

    await waitUntil(async () => {
      const self = (await web.get('/api/user/self')).body.data as { period_used: number };
      return self.period_used === 5 * PRICE_QUOTA;
    }, 'period_used on the user');
    const viaAdmin = (await root.get(`/api/user/${web.userId}`)).body.data as Record<
      string,
      unknown
    >;
    expect(viaAdmin).toMatchObject({
      period_quota: 5 * PRICE_QUOTA,
      period: 'week',
      period_used: 5 * PRICE_QUOTA,
    });
    expect(viaAdmin['period_reset_at']).toBeGreaterThan(Date.now() / 1000);
    const page = (await root.get('/api/user/?p=1&page_size=100')).body.data as {
      items: Array<Record<string, unknown>>;
    };
    expect(page.items.find((u) => u['id'] === web.userId)).toMatchObject({
      period_used: 5 * PRICE_QUOTA,
    });

    // The same budget again: nothing recorded. Cleared: calls are served again.
    await root.put('/api/user/', { id: web.userId, period_quota: 5 * PRICE_QUOTA, period: 'week' });
    await root.put('/api/user/', { id: web.userId, period_quota: 0, period: '' });
    const after = readStoredEvents(t.dataDir, { streamId: `billing-${web.userId}` }).filter(
      (e) => e.type === 'BudgetSet',
    );
    expect(after.map((e) => e.data['periodQuota'])).toEqual([5 * PRICE_QUOTA, 0]);
    await relaySdk(t.url, key).chat.completions.create({ model: MODEL, messages: hello });
  });

  it('bad budget input is refused with the envelope and changes nothing', async () => {
    const web = await registerAndLogin(t.url, 'budgetbad');
    const before = readStoredEvents(t.dataDir).length;
    const cases: Array<[ConsoleClient, 'post' | 'put', string, object, RegExp]> = [
      [web, 'post', '/api/token/', { name: 'x', period_quota: 100 }, /周期额度与周期必须同时设置/],
      [web, 'post', '/api/token/', { name: 'x', period: 'day' }, /周期额度与周期必须同时设置/],
      [web, 'post', '/api/token/', { name: 'x', period_quota: 100, period: 'year' }, /./],
      [web, 'post', '/api/token/', { name: 'x', period_quota: -1, period: 'day' }, /./],
      [
        root,
        'put',
        '/api/user/',
        { id: web.userId, period_quota: 100 },
        /周期额度与周期必须同时设置/,
      ],
      [
        root,
        'put',
        '/api/user/',
        { id: web.userId, period: 'month' },
        /周期额度与周期必须同时设置/,
      ],
      [root, 'put', '/api/user/', { id: web.userId, period_quota: 1, period: 'Day' }, /./],
      [
        root,
        'put',
        '/api/user/',
        { id: web.userId, display_name: 'changed', period_quota: 5, period: '' },
        /周期额度与周期必须同时设置/,
      ],
    ];
    for (const [client, verb, path, body, message] of cases) {
      const res = await client[verb](path, body);
      expect({ body, ...res.body }).toMatchObject({ body, success: false });
      expect(res.body.message).toMatch(message);
    }
    expect(readStoredEvents(t.dataDir).length).toBe(before);
    const self = (await web.get('/api/user/self')).body.data as Record<string, unknown>;
    expect(self).toMatchObject({ display_name: 'budgetbad', period_quota: 0, period: '' });
  });
});
