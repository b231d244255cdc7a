/**
 * A channel's parameter override end to end: saved the way new-api's console sends it (a JSON
 * string), read back, set on the body the upstream gets (OpenAI and Anthropic clients alike, the
 * answering channel's own on a retry), named on the log row; `model` and bad JSON refused.
 */
import type { ChannelDto } from '@tollgate/contracts';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { expectFailure, waitUntil } from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  relaySdk,
  storedReceipts,
} from '../support/relay-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

const OVERRIDE = '{"temperature":0.2,"top_k":7}';
const MESSAGES = [{ role: 'user' as const, content: 'hi' }];

describe('channel param_override', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let routing: RoutingTable;
  let channelId: number;
  let key: string;
  let userId: number;
  let username: string;

  const getChannel = async (id: number): Promise<ChannelDto> => {
    const res = await root.get(`/api/channel/${id}`);
    expect(res.body.success).toBe(true);
    return res.body.data as ChannelDto;
  };

  /** The edit form's whole record sent back, as new-api's console saves a channel. */
  const save = async (fields: Record<string, unknown>) => {
    const current = await getChannel(channelId);
    return root.put('/api/channel/', { ...current, key: '', ...fields });
  };

  const logOthers = async (): Promise<Array<Record<string, unknown>>> => {
    const res = await root.get(`/api/log/?p=1&page_size=10&type=2&username=${username}`);
    return (res.body.data.items as Array<{ other: string }>).map((row) => JSON.parse(row.other));
  };

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    for (const [name, value] of [
      ['RetryTimes', '1'],
      ['QuotaForNewUser', '10000000'],
      ['ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075, 'gpt-4o': 1.25 })],
    ])
      expect((await root.put('/api/option/', { key: name, value })).body).toMatchObject({
        success: true,
      });
    channelId = await addRelayChannel(root, routing, {
      type: 1,
      name: 'override',
      key: 'sk-upstream-override',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    username = 'overrider';
    const web = await registerAndLogin(t.url, username);
    userId = web.userId;
    ({ key } = await createRelayToken(web, { name: 'o', unlimited_quota: true }));
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  it('is saved from the console string, read back, and set on the OpenAI upstream body', async () => {
    const saved = await save({ param_override: OVERRIDE });
    expect(saved.body).toMatchObject({ success: true });
    expect((await getChannel(channelId)).param_override).toBe(OVERRIDE);
    await waitUntil(
      () => routing.channel(channelId)?.paramOverride['top_k'] === 7,
      'routing table has the override',
    );

    await relaySdk(t.url, key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: MESSAGES,
      temperature: 1.5,
    });
    const sent = upstream.requestsTo('/chat/completions')[0]!.body as Record<string, unknown>;
    // Replaced and added; the client's model kept.
    expect(sent).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2, top_k: 7 });
    await waitUntil(async () => (await logOthers()).length >= 1, 'log row');
    expect((await logOthers())[0]).toMatchObject({ param_override: ['temperature', 'top_k'] });
  });

  it('an Anthropic client on an OpenAI channel: set on the converted upstream body', async () => {
    const res = await fetch(`${t.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': `sk-${key}` },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        max_tokens: 20,
        temperature: 0.9,
        messages: MESSAGES,
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: 'message', role: 'assistant' });
    const sent = upstream.requestsTo('/chat/completions')[0]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2, top_k: 7 });
    await waitUntil(() => storedReceipts(t.dataDir, userId).length >= 2, 'second receipt');
    expect(storedReceipts(t.dataDir, userId)[1]).toMatchObject({
      endpoint: '/v1/messages',
      paramOverride: ['temperature', 'top_k'],
    });
  });

  it('a retry on another channel sends that channel its own override', async () => {
    const failing = await addRelayChannel(root, routing, {
      type: 1,
      name: 'first',
      key: 'sk-upstream-first',
      base_url: upstream.url,
      models: 'gpt-4o',
      priority: 10,
      param_override: '{"temperature":0.9,"seed":1}',
    });
    const second = await addRelayChannel(root, routing, {
      type: 1,
      name: 'second',
      key: 'sk-upstream-second',
      base_url: upstream.url,
      models: 'gpt-4o',
      priority: 0,
      param_override: '{"temperature":0.3}',
    });
    upstream.forKey('sk-upstream-first', { fail: 'server_error' });
    await relaySdk(t.url, key).chat.completions.create({ model: 'gpt-4o', messages: MESSAGES });
    const bodies = upstream.requestsTo('/chat/completions').map((r) => r.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({ temperature: 0.9, seed: 1 });
    expect(bodies[1]).toMatchObject({ temperature: 0.3 });
    expect(bodies[1]).not.toHaveProperty('seed');
    await waitUntil(() => storedReceipts(t.dataDir, userId).length >= 3, 'third receipt');
    expect(storedReceipts(t.dataDir, userId)[2]).toMatchObject({
      channelChain: [failing, second],
      paramOverride: ['temperature'],
    });
  });

  it('refuses a model override and bad JSON with the envelope error; nothing changes', async () => {
    expectFailure(
      await save({ param_override: '{"model":"gpt-4o","temperature":1}' }),
      '参数覆盖不能修改 model：计费与响应格式取决于客户端的请求',
    );
    for (const bad of ['{"temperature":', '[1,2]', '"x"'])
      expectFailure(
        await save({ param_override: bad }),
        '参数覆盖必须是合法的 JSON 对象（不超过 10000 个字符）！',
      );
    expect((await getChannel(channelId)).param_override).toBe(OVERRIDE);
    // Cleared with an empty string: the upstream gets the client's value again.
    expect((await save({ param_override: '' })).body).toMatchObject({ success: true });
    await waitUntil(
      () => Object.keys(routing.channel(channelId)?.paramOverride ?? { x: 1 }).length === 0,
      'override cleared',
    );
    await relaySdk(t.url, key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: MESSAGES,
      temperature: 1.5,
    });
    expect(upstream.requestsTo('/chat/completions')[0]!.body).toMatchObject({ temperature: 1.5 });
  });
});
