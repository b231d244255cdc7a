import type { Socket } from 'socket.io-client';
import { openConsoleSocket, socketConnected } from '../support/console-socket';
import type { ChangedEvent, LogDto, LogStatDto, PageOf, TokenDto } from '@tollgate/contracts';
import { SYSTEM_ACTOR, type RequestRelayed } from '@tollgate/domain';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { BalanceBook } from '../../apps/gateway/src/billing/balance-book';
import { UsageAppender } from '../../apps/gateway/src/usage/usage-appender';
import request from 'supertest';
import { readStoredEvents, sessionCookieOf, waitUntil } from '../support/e2e-helpers';
import {
  ConsoleClient,
  createAdmin,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

/** A streamed consumption through two channels (the second answered), as the relay records it. */
function receipt(userId: number, tokenId: number, quota: number): RequestRelayed['data'] {
  return usageReceipt({
    userId,
    tokenId,
    tokenName: 'relay-token',
    channelId: 3,
    channelChain: [2, 3],
    promptTokens: 100,
    completionTokens: 50,
    quota,
    modelRatio: 0.075,
    completionRatio: 4,
    useTimeMs: 2300,
    firstTokenMs: 400,
    stream: true,
    ip: '203.0.113.9',
  });
}

describe('the log', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let admin: ConsoleClient;
  let user: ConsoleClient;
  let other: ConsoleClient;
  let socket: Socket;
  const pushes: ChangedEvent[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: {} });
    root = await loginRoot(t.url);
    await root.put('/api/option/', { key: 'QuotaForNewUser', value: '1000' });
    admin = await createAdmin(t.url, root, 'logadmin');
    user = await registerAndLogin(t.url, 'loguser');
    other = await registerAndLogin(t.url, 'logother');
    const login = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'loguser', password: 'password123' });
    const cookie = sessionCookieOf(login);
    socket = openConsoleSocket(t.url, cookie);
    socket.on('changed', (e: ChangedEvent) => pushes.push(e));
    await socketConnected(socket);
  });
  afterAll(async () => {
    socket.disconnect();
    await t.close();
  });

  const page = async (client: ConsoleClient, path: string) => {
    const res = await client.get(path);
    expect(res.body).toMatchObject({ success: true });
    return res.body.data as PageOf<LogDto>;
  };

  it('records the new-user grant (4), a top-up (1) and an admin edit (3) with the admin visible to admins only', async () => {
    const [key] = (await root.post('/api/redemption/', { name: 'logcode', quota: 777 })).body
      .data as string[];
    expect((await user.post('/api/user/topup', { key })).body.data).toBe(777);
    await admin.put('/api/user/', { id: user.userId, quota: 5000, expected_quota: 1777 });

    const own = await page(user, '/api/log/self/?p=1&page_size=10');
    expect(own.total).toBe(3);
    expect(own.items.map((r) => r.type)).toEqual([3, 1, 4]);
    expect(own.items[1]).toMatchObject({ quota: 777, username: 'loguser', user_id: user.userId });
    expect(own.items[2]).toMatchObject({ quota: 1000 });
    expect(own.items[0]!.other).toBe('');
    expect(JSON.stringify(own)).not.toContain('logadmin');

    const all = await page(root, `/api/log/?username=loguser&type=3`);
    expect(all.items).toHaveLength(1);
    expect(JSON.parse(all.items[0]!.other)).toMatchObject({
      admin_info: { admin_username: 'logadmin' },
    });
    expect(JSON.stringify(all)).not.toContain(key!);
    // The other user sees none of it.
    expect((await page(other, '/api/log/self/?type=1')).total).toBe(0);
  });

  it('consumption receipts become type-2 rows, stats, balances and token counters (counted once)', async () => {
    const created = await user.post('/api/token/', { name: 'relay-token', unlimited_quota: true });
    const tokenId = (created.body.data as { ids: number[] }).ids[0]!;
    const appender = t.app.get(UsageAppender);
    const book = t.app.get(BalanceBook);
    const before = book.userBalance(user.userId)!;
    const meta = { actor: SYSTEM_ACTOR, correlationId: 'relay-test' };
    // Reserve and settle as the relay will, then append the receipt: the book counts it once.
    const reserved = book.reserve('settled-1', user.userId, tokenId, 400);
    if (!reserved.ok) throw new Error('refused');
    const charged = book.settle(reserved.reservation, 300);
    const first = { ...receipt(user.userId, tokenId, charged), requestId: 'settled-1' };
    const positions = await Promise.all([
      appender.append(first, meta),
      appender.append(receipt(user.userId, tokenId, 200), meta),
      appender.append(first, meta), // a retry: idempotent
    ]);
    expect(positions).toHaveLength(3);
    const usage = readStoredEvents(t.dataDir, { type: 'RequestRelayed' });
    expect(usage).toHaveLength(2);
    expect(usage[0]!.streamId).toMatch(/^usage-[0-9a-f]{8}-\d{10}$/);
    await waitUntil(
      async () => (await page(user, '/api/log/self/?type=2')).total === 2,
      'consumption rows',
    );
    expect(book.userBalance(user.userId)).toBe(before - 500);
    const self = (await user.get('/api/user/self')).body.data as {
      quota: number;
      used_quota: number;
    };
    expect(self).toMatchObject({ quota: before - 500, used_quota: 500 });
    const token = (await user.get(`/api/token/${tokenId}`)).body.data as TokenDto;
    expect(token.used_quota).toBe(500);
    expect(token.accessed_time).toBeGreaterThan(0);

    const rows = await page(user, '/api/log/self/?type=2&model_name=gpt-4o-mini');
    expect(rows.items[0]).toMatchObject({
      type: 2,
      token_name: 'relay-token',
      prompt_tokens: 100,
      completion_tokens: 50,
      is_stream: true,
      use_time: 2,
      channel: 0,
      retry: '',
    });
    expect(JSON.parse(rows.items[0]!.other)).not.toHaveProperty('admin_info');
    const adminRows = await page(root, '/api/log/?type=2&channel=3');
    expect(adminRows.items[0]).toMatchObject({ channel: 3, retry: '2,3' });
    expect(JSON.parse(adminRows.items[0]!.other)).toMatchObject({
      model_ratio: 0.075,
      frt: 400,
      admin_info: { use_channel: [2, 3] },
    });

    const stat = (await user.get('/api/log/self/stat')).body.data as LogStatDto;
    expect(stat).toEqual({ quota: 500, rpm: 2, tpm: 300 });
    const adminStat = (await root.get('/api/log/stat?username=loguser')).body.data as LogStatDto;
    expect(adminStat.quota).toBe(500);
    // Unfiltered, the admin's stat reads the running total: the same as summing every type-2 row.
    const everyone = (await root.get('/api/log/stat')).body.data as LogStatDto;
    const consumption = await page(root, '/api/log/?type=2&p=1&page_size=100');
    expect(everyone.quota).toBe(consumption.items.reduce((sum, row) => sum + row.quota, 0));
    expect(everyone.quota).toBeGreaterThanOrEqual(500);
  });

  it('pushes log, token and balance changes to the owner (throttled, no keys)', async () => {
    await waitUntil(
      () => ['logs', 'tokens', 'self'].every((topic) => pushes.some((p) => p.topic === topic)),
      'pushes for logs, tokens and self',
    );
    const keys = ((await user.get('/api/token/?p=0')).body.data as TokenDto[]).map((x) => x.key);
    for (const key of keys) expect(JSON.stringify(pushes)).not.toContain(key);
    // A burst of 20 token creations is far fewer than 20 pushes.
    const mark = pushes.length;
    await user.post('/api/token/', { name: 'burst', count: 20 });
    await new Promise((r) => setTimeout(r, 600));
    const tokenPushes = pushes.slice(mark).filter((p) => p.topic === 'tokens');
    expect(tokenPushes.length).toBeGreaterThan(0);
    expect(tokenPushes.length).toBeLessThan(20);
  });

  it('refuses bad filters without changing anything', async () => {
    // (Text that is no number at all, `start_timestamp=abc`, is the filter left out.)
    for (const query of ['type=9', 'p=-1', 'page_size=1000', 'start_timestamp=-1', 'channel=-2']) {
      const res = await root.get(`/api/log/?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
    }
    // An ordinary user's username/channel filters are ignored on /self: only own rows.
    const own = await page(user, `/api/log/self/?username=logother&channel=3`);
    expect(own.items.every((r) => r.user_id === user.userId)).toBe(true);
  });

  it('root clears the log up to a time; the clear is an event with its actor', async () => {
    const admins = await root.delete('/api/log/?target_timestamp=1');
    expect(admins.body).toEqual({ success: true, message: '', data: 0 });
    expect((await admin.delete(`/api/log/?target_timestamp=${Date.now()}`)).body.success).toBe(
      false,
    );
    const total = (await page(root, '/api/log/')).total;
    const cleared = await root.delete(
      `/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) + 10}`,
    );
    expect(cleared.body).toEqual({ success: true, message: '', data: total });
    expect((await page(root, '/api/log/')).total).toBe(0);
    const [event] = readStoredEvents(t.dataDir, { streamId: 'logs', type: 'LogsCleared' }).slice(
      -1,
    );
    expect(event!.data).toMatchObject({ count: total });
    expect(event!.metadata).toMatchObject({ actor: { kind: 'user', id: root.userId } });
    expect((await root.delete('/api/log/?target_timestamp=abc')).body.success).toBe(false);
  });
});
