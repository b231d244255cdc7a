/**
 * A relayed call that fails on every channel becomes an error row (type 5) naming the channels,
 * the status and the upstream's message with the keys masked; it charges nothing, counts in the
 * dashboard's failure rates and is the channel's last failure. ErrorLogEnabled off records none;
 * refusals before any channel (an unknown model, a bad key) record none either. A failed channel
 * test is the channel's last failure and marks its test failed.
 */
import { join } from 'node:path';
import type { ChannelDto, FailureRateDto, LogDto, PageOf, TokenDto } from '@tollgate/contracts';
import { request } from 'undici';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { allSqliteText, waitUntil } from '../support/e2e-helpers';
import { addRelayChannel, createRelayToken } from '../support/relay-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const KEY_A = 'sk-errlog-first-7Qm2Zx9Lw4Rt8Yp1';
const KEY_B = 'sk-errlog-second-0Vb5Jn8Cq2Wx4Ez6';
const MODEL = 'gpt-4o-mini';
const TOKEN_QUOTA = 200_000;
const badGateway = (key: string) => ({
  status: 502,
  errorBody: { error: { message: `bad gateway, key ${key} is unwell`, type: 'server_error' } },
});

describe('error log: failed relay calls', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let user: ConsoleClient;
  let token: string;
  let tokenId: number;
  const ids = { a: 0, b: 0 };

  const option = async (key: string, value: string) =>
    expect((await root.put('/api/option/', { key, value })).body).toMatchObject({
      success: true,
    });
  const chat = async (model = MODEL, key = `sk-${token}`) => {
    const res = await request(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    return { status: res.statusCode, text: await res.body.text() };
  };
  const rows = async (client: ConsoleClient, path: string) =>
    ((await client.get(path)).body.data as PageOf<LogDto>).items;
  const errorRows = () => rows(root, '/api/log/?p=1&page_size=50&type=5');
  const consumed = async () => (await rows(user, '/api/log/self/?p=1&page_size=50&type=2')).length;
  const balances = async () => {
    const quota = (await user.get('/api/user/self')).body.data.quota as number;
    const tokens = (await user.get('/api/token/?p=0&size=100')).body.data as TokenDto[];
    return { quota, token: tokens.find((row) => row.id === tokenId)!.remain_quota };
  };

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    root = await loginRoot(t.url);
    await option('ModelRatio', JSON.stringify({ [MODEL]: 0.075 }));
    await option('QuotaForNewUser', '5000000');
    await option('RetryTimes', '1');
    const routing = t.app.get(RoutingTable);
    const channel = (name: string, key: string, priority: number) =>
      addRelayChannel(root, routing, {
        type: 1,
        name,
        key,
        priority,
        base_url: upstream.url,
        models: MODEL,
        group: 'default',
      });
    ids.a = await channel('first', KEY_A, 10);
    ids.b = await channel('second', KEY_B, 0);
    user = await registerAndLogin(t.url, 'erroruser');
    ({ key: token, tokenId } = await createRelayToken(user, {
      name: 'k',
      remain_quota: TOKEN_QUOTA,
      unlimited_quota: false,
    }));
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('a 502 on every channel is a type 5 row: channels, status, masked message, no charge', async () => {
    const before = await balances();
    upstream.forKey(KEY_A, badGateway(KEY_A)).forKey(KEY_B, badGateway(KEY_B));
    const failed = await chat();
    expect(failed.status).toBe(502);

    await waitUntil(async () => (await errorRows()).length === 1, 'the error row');
    const [row] = await errorRows();
    expect(row).toMatchObject({
      type: 5,
      username: 'erroruser',
      token_name: 'k',
      model_name: MODEL,
      quota: 0,
      channel: ids.b,
      retry: `${ids.a},${ids.b}`,
      content: 'bad gateway, key *** is unwell',
    });
    expect(JSON.parse(row!.other)).toMatchObject({ status_code: 502, retries: 1 });
    // The user sees the row too, without the channels.
    const [own] = await rows(user, '/api/log/self/?p=1&page_size=10&type=5');
    expect(own).toMatchObject({ type: 5, channel: 0, retry: '', quota: 0 });
    // Nothing was charged: the balance and the token's quota are as they were.
    expect(await balances()).toEqual(before);
    for (const text of [
      allSqliteText(join(t.dataDir, 'events.sqlite')),
      JSON.stringify(await errorRows()),
    ]) {
      expect(text).not.toContain(KEY_A);
      expect(text).not.toContain(KEY_B);
    }
  });

  it("is the last channel's last failure, and counts in the failure rates", async () => {
    upstream.reset();
    expect((await chat()).status).toBe(200);
    await waitUntil(async () => (await consumed()) === 1, 'the consumption row');

    let channel = {} as ChannelDto;
    await waitUntil(async () => {
      channel = (await root.get(`/api/channel/${ids.b}`)).body.data as ChannelDto;
      return (channel.last_failure_time ?? 0) > 0;
    }, 'the last failure');
    expect(channel).toMatchObject({
      last_failure_status: 502,
      last_failure_reason: 'bad gateway, key *** is unwell',
      test_failed: false,
    });

    const own = (await user.get('/api/data/self/failures')).body.data as FailureRateDto[];
    expect(own).toEqual([{ key: MODEL, channel_id: 0, calls: 2, failed: 1 }]);
    const all = (await root.get('/api/data/failures')).body.data as FailureRateDto[];
    expect(all.find((r) => r.channel_id === ids.b)).toMatchObject({ key: 'second', failed: 1 });
    expect((await user.get('/api/data/failures')).body.success).toBe(false);
  });

  it('ErrorLogEnabled off, an unknown model and a bad key record no error row', async () => {
    await option('ErrorLogEnabled', 'false');
    upstream.forKey(KEY_A, badGateway(KEY_A)).forKey(KEY_B, badGateway(KEY_B));
    expect((await chat()).status).toBe(502);
    await option('ErrorLogEnabled', 'true');
    expect((await chat('no-such-model')).status).not.toBe(200);
    expect((await chat(MODEL, 'sk-not-a-token')).status).toBe(401);
    // A later answered call's row is there: anything recorded before it would be too.
    upstream.reset();
    expect((await chat()).status).toBe(200);
    await waitUntil(async () => (await consumed()) === 2, 'the second consumption row');
    expect(await errorRows()).toHaveLength(1);
  });

  it('a failed channel test marks the test failed and is the last failure', async () => {
    upstream.forKey(KEY_A, { fail: 'invalid_key' });
    const tested = await root.get(`/api/channel/test/${ids.a}`);
    expect(tested.body).toMatchObject({ success: false, status_code: 401 });
    const channel = (await root.get(`/api/channel/${ids.a}`)).body.data as ChannelDto;
    expect(channel).toMatchObject({ test_failed: true, last_failure_status: 401 });
    expect(channel.last_failure_reason).not.toContain(KEY_A);
  });
});
