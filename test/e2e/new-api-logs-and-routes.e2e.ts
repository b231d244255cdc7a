/**
 * new-api's log fields and routes through the whole app: a relayed call's row carries its group,
 * token id, request id and (for admins) its channel's present name; users see neither channel id
 * nor name; /api/log/self/search, /api/log/token and /api/status/test answer as new-api's do; a
 * Mistral (42) channel keeps its type and relays.
 */
import request from 'supertest';
import type { ChannelDto, LogDto, PageOf } from '@tollgate/contracts';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { waitUntil } from '../support/e2e-helpers';
import { addRelayChannel, createRelayToken, relaySdk } from '../support/relay-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(90_000);

const MODEL = 'mistral-small-latest';
const MISTRAL = 42;

describe("new-api's log fields and routes", () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let user: ConsoleClient;
  let other: ConsoleClient;
  let channelId: number;
  let tokenId: number;
  let key: string;

  const consumption = async (client: ConsoleClient, path: string): Promise<LogDto[]> => {
    const res = await client.get(path);
    expect(res.body).toMatchObject({ success: true });
    return (res.body.data as PageOf<LogDto>).items.filter((row) => row.type === 2);
  };

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    root = await loginRoot(t.url);
    for (const [name, value] of [
      ['ModelRatio', JSON.stringify({ [MODEL]: 0.1 })],
      ['QuotaForNewUser', '1000000'],
    ])
      expect((await root.put('/api/option/', { key: name, value })).body.success).toBe(true);
    channelId = await addRelayChannel(root, t.app.get(RoutingTable), {
      type: MISTRAL,
      name: 'mistral-main',
      key: 'sk-upstream-mistral',
      base_url: upstream.url,
      models: MODEL,
      group: 'default',
    });
    user = await registerAndLogin(t.url, 'nalogs');
    other = await registerAndLogin(t.url, 'nalogsother');
    ({ tokenId, key } = await createRelayToken(user, { name: 'na-token', unlimited_quota: true }));
    await createRelayToken(other, { name: 'other-token', unlimited_quota: true });
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('a type-42 channel reads back as 42 with new-api fields, its key never in clear', async () => {
    const res = await root.get(`/api/channel/${channelId}`);
    const channel = res.body.data as ChannelDto;
    expect(channel).toMatchObject({
      id: channelId,
      type: MISTRAL,
      key: '',
      header_override: null,
      remark: null,
      settings: '',
      channel_info: { is_multi_key: false, multi_key_size: 0, multi_key_mode: '' },
    });
    expect(JSON.stringify(res.body)).not.toContain('sk-upstream-mistral');
  });

  it("relays, and the row has the group, token and request id; the channel's present name for admins only", async () => {
    const answer = await relaySdk(t.url, key).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0]?.message.content).toBeTruthy();
    expect(upstream.requestsTo('/chat/completions').length).toBeGreaterThan(0);
    let admin: LogDto[] = [];
    await waitUntil(async () => {
      admin = await consumption(root, '/api/log/?username=nalogs');
      return admin.length === 1;
    }, 'the consumption row');
    expect(admin[0]).toMatchObject({
      group: 'default',
      token_id: tokenId,
      token_name: 'na-token',
      channel: channelId,
      channel_name: 'mistral-main',
      model_name: MODEL,
    });
    expect(admin[0]!.request_id).not.toBe('');
    expect((await consumption(root, '/api/log/?group=default&username=nalogs')).length).toBe(1);
    expect((await consumption(root, '/api/log/?group=vip&username=nalogs')).length).toBe(0);

    // A rename shows in the rows already written (the name is read when the log is).
    const renamed = await root.put('/api/channel/', { id: channelId, name: 'mistral-renamed' });
    expect(renamed.body.success).toBe(true);
    await waitUntil(
      async () =>
        (await consumption(root, '/api/log/?username=nalogs'))[0]?.channel_name ===
        'mistral-renamed',
      'the renamed channel in the log',
    );

    const [own] = await consumption(user, '/api/log/self/');
    expect(own).toMatchObject({ group: 'default', token_id: tokenId, channel: 0, retry: '' });
    expect(own!.channel_name).toBe('');
    expect(JSON.parse(own!.other)).not.toHaveProperty('admin_info');
  });

  it('/api/log/self/search finds the own rows by token or model name, nobody else’s', async () => {
    const search = async (client: ConsoleClient, keyword: string) => {
      const res = await client.get(`/api/log/self/search?keyword=${encodeURIComponent(keyword)}`);
      expect(res.body.success).toBe(true);
      return res.body.data as LogDto[];
    };
    const byModel = await search(user, 'MISTRAL-small');
    expect(byModel.map((row) => [row.model_name, row.channel, row.channel_name])).toEqual([
      [MODEL, 0, ''],
    ]);
    expect((await search(user, 'na-tok')).map((row) => row.token_id)).toEqual([tokenId]);
    expect(await search(user, 'no-such-model')).toEqual([]);
    expect(await search(other, 'mistral')).toEqual([]);
    const tooLong = await user.get(`/api/log/self/search?keyword=${'k'.repeat(129)}`);
    expect(tooLong.body.success).toBe(false);
  });

  it("/api/log/token answers the key's own rows without a session, and refuses a bad key", async () => {
    const anonymous = request(t.url);
    const byQuery = await anonymous.get(`/api/log/token?key=sk-${key}`);
    expect(byQuery.body.success).toBe(true);
    const rows = byQuery.body.data as LogDto[];
    expect(rows.map((row) => [row.token_id, row.channel, row.channel_name])).toEqual([
      [tokenId, 0, ''],
    ]);
    expect(JSON.stringify(rows)).not.toContain('admin_info');
    const byHeader = await anonymous.get('/api/log/token').set('Authorization', `Bearer sk-${key}`);
    expect(byHeader.body.data).toEqual(rows);
    for (const bad of [
      '',
      `sk-${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`,
      'sk-',
      'nonsense',
    ]) {
      const res = await anonymous.get(`/api/log/token?key=${encodeURIComponent(bad)}`);
      expect([bad, res.status, res.body]).toEqual([
        bad,
        200,
        { success: false, message: '无效的令牌' },
      ]);
    }
  });

  it('/api/status/test tells admins the server runs, with its requests in flight', async () => {
    const res = await root.get('/api/status/test');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Server is running',
      http_stats: { active_connections: expect.any(Number) },
    });
    expect(res.body.http_stats.active_connections).toBeGreaterThanOrEqual(1);
    expect((await user.get('/api/status/test')).body).toEqual({
      success: false,
      message: '无权进行此操作，权限不足',
    });
  });
});
