import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import type { Socket } from 'socket.io-client';
import { openConsoleSocket, socketConnected } from '../support/console-socket';
import request from 'supertest';
import type { ChangedEvent, ChannelDto } from '@tollgate/contracts';
import { DEFAULT_DISABLE_KEYWORDS } from '@tollgate/domain';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import {
  DisableChannelAutomaticallyCommand,
  EnableChannelAutomaticallyCommand,
} from '../../apps/gateway/src/channels/commands/automatic-status.handler';
import { ChannelTasks } from '../../apps/gateway/src/channels/channel-tasks';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import {
  allSqliteText,
  expectFailure,
  readStoredEvents,
  sessionCookieOf,
  sqliteFileBytes,
  waitUntil,
} from '../support/e2e-helpers';
import {
  ConsoleClient,
  createAdmin,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

/** Short provider timeout so the timeout test is quick. */
const ENV = { CHANNEL_TEST_TIMEOUT_MS: '1500' };

/** Every clear key this file hands the server: none may come back, be stored or be pushed. */
const KEYS_USED = new Set<string>();
const secretKey = (label: string) => {
  const key = `sk-${label}-${Math.random().toString(36).slice(2, 12)}${'x'.repeat(16)}`;
  KEYS_USED.add(key);
  return key;
};

describe('channels (admin) against the mock upstream', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let admin: ConsoleClient;
  let table: RoutingTable;
  let socket: Socket;
  const answers: string[] = [];
  const pushes: ChangedEvent[] = [];

  /** Every answer is kept to prove no key ever comes back. */
  const call = async (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object) => {
    const res = await (method === 'get'
      ? admin.get(path)
      : method === 'delete'
        ? admin.delete(path)
        : admin[method](path, body));
    answers.push(res.text);
    return res;
  };

  const channelBody = (overrides: Record<string, unknown> = {}) => ({
    type: 1,
    name: 'mock-openai',
    key: secretKey('main'),
    base_url: `${upstream.url}/`,
    models: 'gpt-4o-mini,gpt-4o',
    group: 'default',
    ...overrides,
  });

  async function create(overrides: Record<string, unknown> = {}): Promise<number[]> {
    const res = await call('post', '/api/channel/', channelBody(overrides));
    expect(res.body).toMatchObject({ success: true, message: '' });
    return res.body.data.ids as number[];
  }

  const getChannel = async (id: number): Promise<ChannelDto> => {
    const res = await call('get', `/api/channel/${id}`);
    expect(res.body.success).toBe(true);
    return res.body.data as ChannelDto;
  };

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp({ env: ENV });
    const root = await loginRoot(t.url);
    admin = await createAdmin(t.url, root, 'channeladmin');
    table = t.app.get(RoutingTable);
    const login = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'channeladmin', password: 'password123' });
    socket = openConsoleSocket(t.url, sessionCookieOf(login));
    socket.onAny((_name: string, event: ChangedEvent) => pushes.push(event));
    await socketConnected(socket);
  });
  afterAll(async () => {
    socket?.disconnect();
    await t?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  describe('CRUD', () => {
    it('creates, lists, gets, updates fully and deletes a channel; the key is write-only', async () => {
      const key = secretKey('crud');
      const [id] = await create({ name: 'crud', key, priority: 3, weight: 2, tag: 't1' });
      const one = await getChannel(id!);
      expect(one).toMatchObject({
        id,
        type: 1,
        key: '',
        name: 'crud',
        status: 1,
        base_url: upstream.url,
        models: 'gpt-4o-mini,gpt-4o',
        group: 'default',
        priority: 3,
        weight: 2,
        tag: 't1',
        auto_ban: 1,
        response_time: 0,
        balance: 0,
        used_quota: 0,
      });
      expect(one.created_time).toBeGreaterThan(0);

      const list = await call('get', '/api/channel/?p=0&page_size=100&id_sort=true');
      expect(Array.isArray(list.body.data)).toBe(true);
      expect((list.body.data as ChannelDto[]).find((c) => c.id === id)).toEqual(one);

      const updated = await call('put', '/api/channel/', {
        id,
        type: 1,
        name: 'crud-renamed',
        key: '',
        base_url: upstream.url,
        models: 'gpt-4o',
        group: 'default,vip',
        priority: 9,
        weight: 4,
        model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
      });
      expect(updated.body).toMatchObject({
        success: true,
        data: { name: 'crud-renamed', key: '' },
      });
      expect(await getChannel(id!)).toMatchObject({
        name: 'crud-renamed',
        models: 'gpt-4o',
        group: 'default,vip',
        priority: 9,
        weight: 4,
        model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
      });
      // The empty key kept the old one; the mapping applies to the test model.
      const tested = await call('get', `/api/channel/test/${id}?model=gpt-4o`);
      expect(tested.body.success).toBe(true);
      expect(upstream.lastRequest()).toMatchObject({ key, body: { model: 'gpt-4o-2024-08-06' } });

      // A new key replaces it.
      const newKey = secretKey('crud2');
      await call('put', '/api/channel/', { id, key: newKey });
      await call('get', `/api/channel/test/${id}`);
      expect(upstream.lastRequest()?.key).toBe(newKey);

      const deleted = await call('delete', `/api/channel/${id}/`);
      expect(deleted.body).toEqual({ success: true, message: '' });
      expectFailure(await call('get', `/api/channel/${id}`), '渠道未找到，请刷新页面后重试。');
      expectFailure(await call('delete', `/api/channel/${id}`), '渠道未找到，请刷新页面后重试。');
    });

    it('paginates 0-based, sorts by priority or by id', async () => {
      const ids = [
        ...(await create({ name: 'page-a', priority: 1 })),
        ...(await create({ name: 'page-b', priority: 50 })),
        ...(await create({ name: 'page-c', priority: 20 })),
      ];
      const byPriority = await call('get', '/api/channel/search?keyword=page-&p=0&page_size=2');
      expect((byPriority.body.data as ChannelDto[]).map((c) => c.name)).toEqual([
        'page-b',
        'page-c',
      ]);
      const second = await call('get', '/api/channel/search?keyword=page-&p=1&page_size=2');
      expect((second.body.data as ChannelDto[]).map((c) => c.name)).toEqual(['page-a']);
      const byId = await call('get', '/api/channel/search?keyword=page-&id_sort=true');
      expect((byId.body.data as ChannelDto[]).map((c) => c.id)).toEqual([...ids].reverse());
    });

    it('searches by keyword (name, id, exact key), group and model', async () => {
      const key = secretKey('findme');
      const [id] = await create({ name: 'searchable', key, group: 'vip,svip', models: 'claude-x' });
      const names = async (query: string) =>
        ((await call('get', `/api/channel/search?${query}`)).body.data as ChannelDto[]).map(
          (c) => c.id,
        );
      expect(await names('keyword=searchab')).toEqual([id]);
      expect(await names(`keyword=${id}`)).toContain(id);
      expect(await names(`keyword=${encodeURIComponent(key)}`)).toEqual([id]);
      expect(await names('group=svip')).toEqual([id]);
      expect(await names('group=vi')).not.toContain(id);
      expect(await names('model=claude-x&group=vip')).toEqual([id]);
      expect(await names('model=nothing-like-it')).toEqual([]);
    });
  });

  it('batch create: one channel per key line; JSON-keyed types keep the whole key', async () => {
    const keys = [secretKey('b1'), secretKey('b2'), secretKey('b3')];
    const ids = await create({ name: 'batch', key: `${keys[0]}\n\n ${keys[1]} \r\n${keys[2]}\n` });
    expect(ids).toHaveLength(3);
    for (const [i, id] of ids.entries()) {
      expect(await getChannel(id)).toMatchObject({ name: 'batch', key: '' });
      await call('get', `/api/channel/test/${id}`);
      expect(upstream.lastRequest()?.key).toBe(keys[i]);
    }
    const vertexKey = '{\n  "type": "service_account",\n  "project_id": "p"\n}';
    const vertex = await create({
      type: 41,
      name: 'vertex',
      key: vertexKey,
      other: '{"default":"us-central1"}',
    });
    expect(vertex).toHaveLength(1);
    expect(table.channel(vertex[0]!)?.key).toBe(vertexKey);
    // new-api's wrapper with mode single never splits.
    const single = await call('post', '/api/channel/', {
      mode: 'single',
      channel: channelBody({ name: 'wrapped', key: `${secretKey('w1')}` }),
    });
    expect(single.body.data.ids).toHaveLength(1);
  });

  describe('validation changes nothing on failure', () => {
    it.each([
      ['no name', { name: ' ' }, '请填写渠道名称和渠道密钥！'],
      ['no key', { key: '\n  \n' }, '请填写渠道名称和渠道密钥！'],
      ['no model', { models: ' , ' }, '请至少选择一个模型！'],
      ['bad model mapping', { model_mapping: '{"a":' }, '模型映射必须是合法的 JSON 格式！'],
      [
        'bad status code mapping',
        { status_code_mapping: '[]' },
        '状态码复写必须是合法的 JSON 格式！',
      ],
      [
        'Baidu key format',
        { type: 15, key: 'only-one-part' },
        '密钥格式不正确，请按照 APIKey|SecretKey 的格式填写',
      ],
      [
        'one bad line among good ones',
        { type: 15, key: 'a|b\nbad' },
        '密钥格式不正确，请按照 APIKey|SecretKey 的格式填写',
      ],
      [
        'Tencent key format',
        { type: 23, key: 'a|b' },
        '密钥格式不正确，请按照 AppId|SecretId|SecretKey 的格式填写',
      ],
      ['Vertex key not JSON', { type: 41, key: 'nope' }, '密钥格式不正确，请按照 JSON 的格式填写'],
      ['priority below -999', { priority: -1000 }, '优先级不能小于 -999'],
      ['unknown type', { type: 999 }, '未知的渠道类型'],
      [
        'base URL not http',
        { base_url: 'file:///etc/passwd' },
        'Base URL 必须以 http:// 或 https:// 开头',
      ],
    ])('%s', async (_what, overrides, message) => {
      const before = readStoredEvents(t.dataDir).length;
      expectFailure(await call('post', '/api/channel/', channelBody(overrides)), message);
      expect(readStoredEvents(t.dataDir).length).toBe(before);
    });

    it('English messages follow Accept-Language', async () => {
      const res = await admin
        .post('/api/channel/', channelBody({ models: '' }))
        .set('Accept-Language', 'en');
      expectFailure(res, 'Please select at least one model');
    });

    it('clamps weight, strips trailing slashes, defaults Azure and Spark other', async () => {
      const [plain] = await create({ weight: -5, base_url: `${upstream.url}///` });
      expect(await getChannel(plain!)).toMatchObject({ weight: 0, base_url: upstream.url });
      const [azure] = await create({ type: 3, name: 'azure' });
      expect((await getChannel(azure!)).other).toBe('2023-06-01-preview');
      const [spark] = await create({ type: 18, name: 'spark', key: 'app|secret|key' });
      expect((await getChannel(spark!)).other).toBe('v2.1');
      KEYS_USED.add('app|secret|key');
    });

    it('bad input types get the input error, never a 500', async () => {
      for (const body of [
        { type: 'x' },
        { priority: 'high' },
        { models: 5 },
        { auto_ban: 5 },
        { name: { a: 1 } },
      ]) {
        const res = await call('post', '/api/channel/', { ...channelBody(), ...body });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(false);
      }
      expect((await call('post', '/api/channel/batch', { ids: ['x'] })).body.success).toBe(false);
      expect((await call('get', '/api/channel/abc')).body).toEqual({
        success: false,
        message: '无效的参数',
      });
    });
  });

  it('partial updates: status, priority, weight alone', async () => {
    const [id] = await create({ name: 'partial', priority: 1, weight: 1 });
    await call('put', '/api/channel/', { id, status: 2 });
    expect(await getChannel(id!)).toMatchObject({
      status: 2,
      priority: 1,
      weight: 1,
      name: 'partial',
    });
    await call('put', '/api/channel/', { id, priority: 7 });
    await call('put', '/api/channel/', { id, weight: -3 });
    await call('put', '/api/channel/', { id, priority: null });
    expect(await getChannel(id!)).toMatchObject({ status: 2, priority: 7, weight: 0 });
    await call('put', '/api/channel/', { id, status: 1 });
    expect((await getChannel(id!)).status).toBe(1);
    expectFailure(await call('put', '/api/channel/', { id, status: 3 }), '无效的渠道状态');
    expectFailure(
      await call('put', '/api/channel/', { id: 999999, status: 2 }),
      '渠道未找到，请刷新页面后重试。',
    );
    const events = readStoredEvents(t.dataDir, { streamId: `channel-${id}` });
    const status = events.filter((e) => e.type === 'ChannelStatusChanged');
    expect(status.map((e) => [e.data['from'], e.data['to']])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(status[0]!.metadata['actor']).toMatchObject({ kind: 'user', id: admin.userId });
  });

  it('the edit form sends a whole record back (also of an automatically disabled channel)', async () => {
    const key = secretKey('roundtrip');
    const [id] = await create({ name: 'roundtrip', key });
    await t.app.get(CommandBus).execute(new DisableChannelAutomaticallyCommand(id!, 'why'));
    await waitUntil(async () => (await getChannel(id!)).status === 3, 'status 3');
    const record = await getChannel(id!);
    const res = await call('put', '/api/channel/', { ...record, name: 'roundtrip-2' });
    expect(res.body).toMatchObject({ success: true, data: { name: 'roundtrip-2', status: 3 } });
    await call('get', `/api/channel/test/${id}`);
    expect(upstream.lastRequest()?.key).toBe(key);
  });

  it('copy: a new channel with the suffix and the same key', async () => {
    const key = secretKey('copy');
    const [id] = await create({ name: 'original', key, priority: 4 });
    const copied = await call('post', `/api/channel/copy/${id}`);
    expect(copied.body.success).toBe(true);
    const copyId = copied.body.data.id as number;
    expect(await getChannel(copyId)).toMatchObject({ name: 'original_复制', priority: 4, key: '' });
    await call('get', `/api/channel/test/${copyId}`);
    expect(upstream.lastRequest()?.key).toBe(key);
    const custom = await call('post', `/api/channel/copy/${id}?suffix=-b`);
    expect((await getChannel(custom.body.data.id)).name).toBe('original-b');
    expectFailure(await call('post', '/api/channel/copy/999999'), '渠道未找到，请刷新页面后重试。');
  });

  it('delete disabled (manual and automatic) and batch delete answer counts', async () => {
    await call('delete', '/api/channel/disabled'); // earlier tests' leftovers
    const [manual, automatic, enabled] = [
      ...(await create({ name: 'dis-1' })),
      ...(await create({ name: 'dis-2' })),
      ...(await create({ name: 'dis-3' })),
    ];
    await call('put', '/api/channel/', { id: manual, status: 2 });
    await t.app.get(CommandBus).execute(new DisableChannelAutomaticallyCommand(automatic!, 'test'));
    await waitUntil(() => table.channel(automatic!)?.status === 3, 'auto-disable in the table');
    await waitUntil(
      async () => (await getChannel(automatic!)).status === 3,
      'auto-disable in the read model',
    );
    const res = await call('delete', '/api/channel/disabled');
    expect(res.body).toEqual({ success: true, message: '', data: 2 });
    expect((await call('get', `/api/channel/${manual}`)).body.success).toBe(false);
    expect((await getChannel(enabled!)).name).toBe('dis-3');

    const [a, b] = [...(await create({ name: 'bd-1' })), ...(await create({ name: 'bd-2' }))];
    const batch = await call('post', '/api/channel/batch', { ids: [a, b, 999999] });
    expect(batch.body).toEqual({ success: true, message: '', data: 2 });
    expectFailure(await call('post', '/api/channel/batch', { ids: [] }), '请先选择要删除的通道！');
  });

  describe('tests', () => {
    it('test one records the response time; failures are recorded too', async () => {
      const [id] = await create({ name: 'tested', test_model: 'gpt-4o' });
      upstream.next({ latencyMs: 120 });
      const res = await call('get', `/api/channel/test/${id}`);
      expect(res.body).toEqual({ success: true, message: '', time: expect.any(Number) });
      expect(res.body.time).toBeGreaterThanOrEqual(0.12);
      expect(upstream.lastRequest()?.body).toMatchObject({ model: 'gpt-4o' });
      const after = await getChannel(id!);
      expect(after.response_time).toBeGreaterThanOrEqual(120);
      expect(after.test_time).toBeGreaterThan(0);

      upstream.next({ fail: 'server_error' });
      const failed = await call('get', `/api/channel/test/${id}?model=gpt-4o-mini`);
      expect(failed.body).toMatchObject({ success: false, time: expect.any(Number) });
      expect(failed.body.message).toContain('The server had an error');
      const tested = readStoredEvents(t.dataDir, {
        streamId: `channel-${id}`,
        type: 'ChannelTested',
      });
      expect(tested.map((e) => [e.data['model'], e.data['success']])).toEqual([
        ['gpt-4o', true],
        ['gpt-4o-mini', false],
      ]);
      expect(tested[1]!.metadata['actor']).toMatchObject({ kind: 'user', id: admin.userId });
      // A 500 is passing trouble: the channel stays enabled.
      expect((await getChannel(id!)).status).toBe(1);
    });

    it('an invalid key disables the channel automatically when the option is on, with the reason', async () => {
      const root = await loginRoot(t.url);
      await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
      await root.put('/api/option/', { key: 'AutomaticEnableChannelEnabled', value: 'true' });
      try {
        const key = secretKey('dead');
        const [id] = await create({ name: 'doomed', key });
        upstream.forKey(key, { fail: 'invalid_key' });
        const res = await call('get', `/api/channel/test/${id}`);
        expect(res.body.success).toBe(false);
        expect(res.body.message).toContain('Incorrect API key');
        const channel = await getChannel(id!);
        expect(channel.status).toBe(3);
        const info = JSON.parse(channel.other_info) as {
          status_reason: string;
          status_time: number;
        };
        expect(info.status_reason).toContain('Incorrect API key');
        expect(info.status_time).toBeGreaterThan(0);
        const [changed] = readStoredEvents(t.dataDir, {
          streamId: `channel-${id}`,
          type: 'ChannelStatusChanged',
        });
        expect(changed!.metadata['actor']).toEqual({ kind: 'system', id: null, role: null });
        expect(table.candidates('default', 'gpt-4o-mini').map((c) => c.id)).not.toContain(id);

        // The key works again: a passing test brings an automatically disabled channel back.
        upstream.reset();
        expect((await call('get', `/api/channel/test/${id}`)).body.success).toBe(true);
        expect((await getChannel(id!)).status).toBe(1);
        expect(table.candidates('default', 'gpt-4o-mini').map((c) => c.id)).toContain(id);
      } finally {
        await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
        await root.put('/api/option/', { key: 'AutomaticEnableChannelEnabled', value: 'false' });
      }
    });

    it('test all runs in the background; results arrive as events and pushes', async () => {
      const [good] = await create({ name: 'all-good', key: secretKey('allgood') });
      const badKey = secretKey('allbad');
      const [bad] = await create({ name: 'all-bad', key: badKey });
      upstream.forKey(badKey, { fail: 'rate_limit' });
      const from = pushes.length;
      const res = await call('get', '/api/channel/test');
      expect(res.body).toEqual({ success: true, message: '' });
      await waitUntil(
        async () =>
          (await getChannel(good!)).test_time > 0 && (await getChannel(bad!)).test_time > 0,
        'both tested',
        10_000,
      );
      const results = (id: number) =>
        readStoredEvents(t.dataDir, { streamId: `channel-${id}`, type: 'ChannelTested' }).map(
          (e) => e.data['success'],
        );
      expect(results(good!)).toEqual([true]);
      expect(results(bad!)).toEqual([false]);
      await waitUntil(
        () => pushes.slice(from).some((p) => p.topic === 'channels' && p.id === bad),
        'a push about the failed channel',
      );
      await t.app.get(ChannelTasks).idle();
    });

    it('test all reads each channel at its turn: a new key is used, a channel disabled or deleted meanwhile is skipped', async () => {
      // Four slow channels hold the four workers (under the 1.5 s timeout) while the later ones
      // are changed.
      const slowKeys = [1, 2, 3, 4].map((n) => secretKey(`hold${n}`));
      for (const key of slowKeys) upstream.forKey(key, { latencyMs: 1200 });
      const holders = [];
      for (const key of slowKeys) holders.push(...(await create({ name: 'hold', key })));
      const [rekeyed] = await create({ name: 'rekeyed', key: secretKey('oldkey') });
      const [disabled] = await create({ name: 'disabled-meanwhile', key: secretKey('off') });
      const [deleted] = await create({ name: 'deleted-meanwhile', key: secretKey('gone') });

      expect((await call('get', '/api/channel/test')).body.success).toBe(true);
      const held = () => upstream.requests.filter((r) => slowKeys.includes(r.key)).length;
      await waitUntil(() => held() === 4, 'the four slow tests in flight', 10_000);
      const newKey = secretKey('newkey');
      expect((await call('put', '/api/channel/', { id: rekeyed, key: newKey })).body.success).toBe(
        true,
      );
      expect((await call('put', '/api/channel/', { id: disabled, status: 2 })).body.success).toBe(
        true,
      );
      expect((await call('delete', `/api/channel/${deleted}/`)).body.success).toBe(true);
      await t.app.get(ChannelTasks).idle();

      const tested = (id: number) =>
        readStoredEvents(t.dataDir, { streamId: `channel-${id}`, type: 'ChannelTested' });
      expect(upstream.requests.filter((r) => r.key === newKey)).toHaveLength(1);
      expect(tested(rekeyed!)).toHaveLength(1);
      expect(tested(disabled!)).toEqual([]);
      expect(tested(deleted!)).toEqual([]);
      expect(upstream.requests.filter((r) => /^sk-(oldkey|off|gone)-/.test(r.key))).toEqual([]);
      for (const id of holders) expect(tested(id)).toHaveLength(1);
      await call('post', '/api/channel/batch', { ids: [...holders, rekeyed, disabled] });
    });

    it('Azure: the deployment URL with the api version and the api-key header', async () => {
      const key = secretKey('azure');
      const [id] = await create({ type: 3, name: 'azure-test', key, models: 'gpt-4.1' });
      expect((await call('get', `/api/channel/test/${id}`)).body.success).toBe(true);
      expect(upstream.lastRequest()).toMatchObject({
        path: '/openai/deployments/gpt-41/chat/completions',
        query: { 'api-version': '2023-06-01-preview' },
        key,
      });
      expect(upstream.lastRequest()?.headers['authorization']).toBeUndefined();
    });

    it('Custom: the base URL is the endpoint with {model} substituted, as the relay sends it', async () => {
      const key = secretKey('custom');
      const [id] = await create({
        type: 8,
        name: 'custom-test',
        key,
        base_url: `${upstream.url}/deploy/{model}/chat/completions`,
        models: 'gpt-4o-mini',
      });
      expect((await call('get', `/api/channel/test/${id}`)).body.success).toBe(true);
      expect(upstream.lastRequest()).toMatchObject({
        path: '/deploy/gpt-4o-mini/chat/completions',
        key,
      });
    });

    it('the AutomaticDisableKeywords option decides which provider messages disable', async () => {
      const root = await loginRoot(t.url);
      await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
      await root.put('/api/option/', {
        key: 'AutomaticDisableKeywords',
        value: 'account frozen by provider',
      });
      try {
        const key = secretKey('frozen');
        const [id] = await create({ name: 'frozen', key });
        upstream.forKey(key, {
          status: 402,
          errorBody: { error: { message: 'Your Account Frozen By Provider today' } },
        });
        expect((await call('get', `/api/channel/test/${id}`)).body.success).toBe(false);
        const channel = await getChannel(id!);
        expect(channel.status).toBe(3);
        expect(JSON.parse(channel.other_info).status_reason).toBe(
          '测试失败：status 402: Your Account Frozen By Provider today',
        );
      } finally {
        await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
        await root.put('/api/option/', {
          key: 'AutomaticDisableKeywords',
          value: DEFAULT_DISABLE_KEYWORDS.join('\n'),
        });
      }
    });

    it('a Custom or Azure channel saved without a base URL fails its test, never a 500', async () => {
      for (const type of [8, 3]) {
        const [id] = await create({ type, name: `no-base-${type}`, base_url: '' });
        const res = await call('get', `/api/channel/test/${id}`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: false, message: 'invalid base URL ""' });
      }
    });

    it('a provider echoing the key in its error never gets it stored or answered', async () => {
      const key = secretKey('echo');
      const [id] = await create({ name: 'echo', key });
      upstream.forKey(key, { status: 400, errorBody: { error: { message: `bad key ${key}!` } } });
      const tested = await call('get', `/api/channel/test/${id}`);
      expect(tested.body).toMatchObject({ success: false, message: 'bad key ***!' });
      const fetched = await call('get', `/api/channel/fetch_models/${id}`);
      expect(fetched.body.message).toBe('获取模型列表失败：bad key ***!');
      const balance = await call('get', `/api/channel/update_balance/${id}/`);
      expect(balance.body.message).toBe('查询余额失败：bad key ***!');
    });

    it('a provider slower than CHANNEL_TEST_TIMEOUT_MS fails the test at the timeout', async () => {
      const [id] = await create({ name: 'slow' });
      upstream.next({ latencyMs: 3000 });
      const started = Date.now();
      const res = await call('get', `/api/channel/test/${id}`);
      expect(Date.now() - started).toBeLessThan(2800);
      expect(res.body).toMatchObject({ success: false, message: 'timeout after 1.5s' });
      expect(res.body.time).toBeGreaterThanOrEqual(1.4);
      expect((await getChannel(id!)).response_time).toBeGreaterThanOrEqual(1400);
    });

    it.each([
      [14, '/v1/messages'],
      [24, '/v1beta/models/m-test:generateContent'],
      [4, '/api/chat'],
    ])('a type-%i channel is tested through its adaptor (%s)', async (type, path) => {
      const [id] = await create({ type, name: `adaptor-${type}`, models: 'm-test' });
      const res = await call('get', `/api/channel/test/${id}`);
      expect(res.body).toMatchObject({ success: true, message: '' });
      expect(upstream.lastRequest()!.path).toBe(path);
    });

    it('an unsupported type says so; a missing channel is not found', async () => {
      const [palm] = await create({ type: 11, name: 'palm', models: 'chat-bison' });
      expectFailure(await call('get', `/api/channel/test/${palm}`), '暂不支持测试该类型的渠道');
      expectFailure(
        await call('get', '/api/channel/test/999999'),
        '渠道未找到，请刷新页面后重试。',
      );
    });
  });

  describe('balances', () => {
    it.each([1, 8, 10, 12, 13, 20, 40, 43])(
      'type %i: the provider balance is recorded',
      async (type) => {
        const key = secretKey(`bal${type}`);
        const [id] = await create({ type, name: `balance-${type}`, key });
        upstream.forKey(key, { balance: 42.5 });
        const res = await call('get', `/api/channel/update_balance/${id}/`);
        expect(res.body).toEqual({ success: true, message: '', balance: 42.5 });
        const channel = await getChannel(id!);
        expect(channel.balance).toBe(42.5);
        expect(channel.balance_updated_time).toBeGreaterThan(0);
        expect(upstream.requests.every((r) => r.key === key)).toBe(true);
      },
    );

    it('unsupported types and provider failures answer a message', async () => {
      const [claude] = await create({ type: 14, name: 'claude-bal', models: 'claude-3' });
      expectFailure(
        await call('get', `/api/channel/update_balance/${claude}/`),
        '该渠道类型不支持查询余额',
      );
      const key = secretKey('balfail');
      const [id] = await create({ name: 'bal-fail', key });
      upstream.forKey(key, { fail: 'invalid_key' });
      const res = await call('get', `/api/channel/update_balance/${id}/`);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/^查询余额失败：Incorrect API key/);
    });

    it('update all balances runs in the background', async () => {
      const key = secretKey('balall');
      const [id] = await create({ type: 43, name: 'bal-all', key });
      upstream.forKey(key, { balance: 7.25 });
      expect((await call('get', '/api/channel/update_balance')).body).toEqual({
        success: true,
        message: '',
      });
      await waitUntil(async () => (await getChannel(id!)).balance === 7.25, 'balance', 10_000);
      await t.app.get(ChannelTasks).idle();
    });
  });

  describe('models', () => {
    it('fetches a channel’s models from the provider, server-side', async () => {
      const [id] = await create({ name: 'fetch' });
      upstream.setDefaults({ models: ['m-a', 'm-b'] });
      const res = await call('get', `/api/channel/fetch_models/${id}`);
      expect(res.body).toEqual({ success: true, message: '', data: ['m-a', 'm-b'] });
    });

    it('fetches for the add form from {base_url, type, key}', async () => {
      const key = secretKey('form');
      upstream.forKey(key, { models: ['form-model'] });
      const res = await call('post', '/api/channel/fetch_models', {
        type: 1,
        key,
        base_url: `${upstream.url}/`,
      });
      expect(res.body).toEqual({ success: true, message: '', data: ['form-model'] });
      expectFailure(
        await call('post', '/api/channel/fetch_models', {
          type: 1,
          key: '',
          base_url: upstream.url,
        }),
        '请填写密钥',
      );
      expectFailure(
        await call('post', '/api/channel/fetch_models', { type: 14, key, base_url: upstream.url }),
        '仅支持 OpenAI 接口格式',
      );
      upstream.forKey(key, { fail: 'invalid_key' });
      const failed = await call('post', '/api/channel/fetch_models', {
        type: 1,
        key,
        base_url: upstream.url,
      });
      expect(failed.body.success).toBe(false);
      expect(failed.body.message).toMatch(/^获取模型列表失败：Incorrect API key/);
    });

    it('GET /api/channel/models, /api/models and /api/user/models list real models', async () => {
      const [id] = await create({ name: 'real', models: 'real-model-1', group: 'default' });
      const known = (await call('get', '/api/channel/models')).body.data as Array<{ id: string }>;
      expect(known.map((m) => m.id)).toEqual(expect.arrayContaining(['real-model-1', 'gpt-4o']));
      const byType = (await call('get', '/api/models')).body.data as Record<string, string[]>;
      expect(byType['1']).toEqual(expect.arrayContaining(['real-model-1', 'gpt-4o']));
      const user = await registerAndLogin(t.url, 'modeluser');
      const models = async () => (await user.get('/api/user/models')).body.data as string[];
      expect(await models()).toContain('real-model-1');
      await call('put', '/api/channel/', { id, status: 2 });
      expect(await models()).not.toContain('real-model-1');
    });
  });

  it('the routing table follows add, disable, re-enable, priority change and delete without a restart', async () => {
    const model = 'route-model';
    const ids = (g = 'default') => table.candidates(g, model).map((c) => c.id);
    const key = secretKey('route');
    const [low] = await create({
      name: 'route-low',
      key,
      models: model,
      priority: 1,
      group: 'default,vip',
    });
    expect(ids()).toEqual([low]);
    expect(ids('vip')).toEqual([low]);
    expect(table.channel(low!)).toMatchObject({
      key,
      baseUrl: upstream.url,
      status: 1,
      groups: ['default', 'vip'],
    });
    expect(table.models('vip')).toContain(model);
    const [high] = await create({ name: 'route-high', models: model, priority: 10 });
    expect(ids()).toEqual([high, low]);
    await call('put', '/api/channel/', { id: low, priority: 20 });
    expect(ids()).toEqual([low, high]);
    await call('put', '/api/channel/', { id: low, status: 2 });
    expect(ids()).toEqual([high]);
    expect(table.channel(low!)?.status).toBe(2);
    expect(table.models('vip')).not.toContain(model);
    await call('put', '/api/channel/', { id: low, status: 1 });
    expect(ids()).toEqual([low, high]);
    const bus = t.app.get(CommandBus);
    expect(await bus.execute(new DisableChannelAutomaticallyCommand(high!, 'upstream 401'))).toBe(
      true,
    );
    await waitUntil(() => ids().length === 1, 'automatic disable reaches the table');
    expect(await bus.execute(new DisableChannelAutomaticallyCommand(high!, 'again'))).toBe(false);
    expect(await bus.execute(new EnableChannelAutomaticallyCommand(high!))).toBe(true);
    await waitUntil(() => ids().length === 2, 'automatic enable reaches the table');
    await call('put', '/api/channel/', { id: high, models: 'other-model' });
    expect(ids()).toEqual([low]);
    await call('delete', `/api/channel/${low}`);
    expect(ids()).toEqual([]);
    expect(table.channel(low!)).toBeUndefined();
    const fixed = await call('post', '/api/channel/fix');
    expect(fixed.body.success).toBe(true);
    expect(fixed.body.data).toBeGreaterThan(0);
    expect(table.candidates('default', 'other-model').map((c) => c.id)).toEqual([high]);
  });

  it('no key ever appears in an answer, the event log, the read store or a push', async () => {
    await waitUntil(() => pushes.length > 0, 'some pushes');
    const stored = Buffer.concat([
      sqliteFileBytes(join(t.dataDir, 'events.sqlite')),
      sqliteFileBytes(join(t.dataDir, 'read.sqlite')),
    ]).toString('latin1');
    const readText = allSqliteText(join(t.dataDir, 'read.sqlite'));
    const pushed = JSON.stringify(pushes);
    const answered = answers.join('\n');
    expect(KEYS_USED.size).toBeGreaterThan(20);
    for (const key of KEYS_USED) {
      for (const [where, text] of [
        ['answers', answered],
        ['stored bytes', stored],
        ['read store', readText],
        ['pushes', pushed],
      ] as const)
        expect([where, text.includes(key)]).toEqual([where, false]);
    }
    // The sealed form is what the log holds.
    const [created] = readStoredEvents(t.dataDir, { type: 'ChannelCreated' });
    expect(created!.data['key']).toEqual({ cipher: expect.any(String), hash: expect.any(String) });
  });

  it('after a restart the routing table and the read model come back from the log', async () => {
    const list = async () =>
      (await call('get', '/api/channel/?p=0&page_size=1000&id_sort=true')).body
        .data as ChannelDto[];
    const routes = () =>
      table
        .candidates('default', 'gpt-4o-mini')
        .map((c) => ({ id: c.id, key: c.key, p: c.priority }));
    const before = { channels: await list(), routes: routes() };
    expect(before.channels.length).toBeGreaterThan(10);
    expect(before.routes.length).toBeGreaterThan(5);
    socket.disconnect();
    await t.close();
    t = await startTestApp({ dataDir: t.dataDir, env: ENV });
    admin = await new ConsoleClient(t.url).login('channeladmin', 'password123');
    table = t.app.get(RoutingTable);
    expect({ channels: await list(), routes: routes() }).toEqual(before);
  });
});
