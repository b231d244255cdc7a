/**
 * The relay against every kind of OpenAI-wire channel, end to end: Azure (deployment URL,
 * api-version, api-key header), Custom (`{model}` in a full endpoint URL), the OpenAI-compatible
 * family of the type table (provider paths and headers), rerank, the channel's status-code
 * mapping and the failure budget. The official openai SDK is the client where it has the call;
 * the mock upstream records what each channel received.
 */
import type OpenAI from 'openai';
import request from 'supertest';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { waitUntil } from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  type Receipt,
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

/** One model per channel below, so each request can only go to the channel under test. */
const RATIO = 0.5;
const COMPLETION = 2;

describe('relay targets (whole app, mock upstream)', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let routing: RoutingTable;
  let sdk: OpenAI;
  let key: string;
  let userId: number;
  const models: string[] = [];

  const option = async (name: string, value: string) => {
    const res = await root.put('/api/option/', { key: name, value });
    expect(res.body).toMatchObject({ success: true });
  };

  /** A channel serving only `model`; waits until the routing table has it. */
  const addChannel = (model: string, body: Record<string, unknown>): Promise<number> =>
    addRelayChannel(root, routing, {
      type: 1,
      name: model,
      key: `sk-${model}`,
      base_url: upstream.url,
      models: model,
      group: 'default',
      ...body,
    });

  const receipts = (): Receipt[] => storedReceipts(t.dataDir, userId);

  async function receiptFor(model: string): Promise<Receipt> {
    await waitUntil(() => receipts().some((r) => r.model === model), `a receipt for ${model}`);
    return receipts().find((r) => r.model === model)!;
  }

  const chat = (model: string) =>
    sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] });

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    for (const type of [3, 8, 4, 19, 20, 25, 26, 31, 35, 40, 43]) models.push(`m-type-${type}`);
    models.push('m-azure-stream', 'm-rerank', 'm-mapped', 'm-flaky', 'm-steady');
    await option('ModelRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, RATIO]))));
    await option(
      'CompletionRatio',
      JSON.stringify(Object.fromEntries(models.map((m) => [m, COMPLETION]))),
    );
    await option('QuotaForNewUser', '1000000');
    const web = await registerAndLogin(t.url, 'targets');
    userId = web.userId;
    ({ key } = await createRelayToken(web, { name: 'targets', unlimited_quota: true }));
    sdk = relaySdk(t.url, key);
  });

  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  beforeEach(() => upstream.reset());

  it('Azure: deployment URL without dots, the api-version of `other`, the api-key header; billed on the requested name', async () => {
    upstream.setDefaults({ usage: { prompt_tokens: 40, completion_tokens: 10 } });
    const channel = await addChannel('m-type-3', {
      type: 3,
      key: 'azure-secret',
      other: '2024-02-01',
      model_mapping: JSON.stringify({ 'm-type-3': 'gpt-3.5-turbo' }),
    });
    const answer = await chat('m-type-3');
    expect(answer.choices[0]!.message.content).toBeTruthy();
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/openai/deployments/gpt-35-turbo/chat/completions');
    expect(sent.query).toEqual({ 'api-version': '2024-02-01' });
    expect(sent.headers['api-key']).toBe('azure-secret');
    expect(sent.headers['authorization']).toBeUndefined();
    const receipt = await receiptFor('m-type-3');
    expect(receipt).toMatchObject({
      channelId: channel,
      upstreamModel: 'gpt-3.5-turbo',
      quota: Math.round((40 + 10 * COMPLETION) * RATIO),
      estimated: false,
    });
  });

  it('Azure streams with include_usage asked of it and the default api-version when `other` is empty', async () => {
    upstream.setDefaults({ chunks: 3, usage: { prompt_tokens: 20, completion_tokens: 3 } });
    await addChannel('m-azure-stream', { type: 3, key: 'azure-secret' });
    const stream = await sdk.chat.completions.create({
      model: 'm-azure-stream',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('tok tok tok ');
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/openai/deployments/m-azure-stream/chat/completions');
    // The form's default for type 3 is stored when `other` is left empty.
    expect(sent.query).toEqual({ 'api-version': '2023-06-01-preview' });
    expect(sent.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const receipt = await receiptFor('m-azure-stream');
    expect(receipt).toMatchObject({ stream: true, estimated: false, promptTokens: 20 });
    expect(receipt.quota).toBe(Math.round((20 + 3 * COMPLETION) * RATIO));
  });

  it('Custom: the base URL is the whole endpoint with {model} replaced by the upstream name', async () => {
    await addChannel('m-type-8', {
      type: 8,
      base_url: `${upstream.url}/gateway/{model}/chat/completions`,
      model_mapping: JSON.stringify({ 'm-type-8': 'vendor/model-x' }),
    });
    await chat('m-type-8');
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/gateway/vendor%2Fmodel-x/chat/completions');
    expect(sent.key).toBe('sk-m-type-8');
    expect(sent.body).toMatchObject({ model: 'vendor/model-x' });
    expect((await receiptFor('m-type-8')).upstreamModel).toBe('vendor/model-x');
  });

  it.each([
    [4, '/api/chat'], // Ollama's native API (the adaptor; Bearer only because the key is set)
    [19, '/v1/chat/completions'],
    [20, '/v1/chat/completions'],
    [25, '/v1/chat/completions'],
    [26, '/api/paas/v4/chat/completions'],
    [31, '/v1/chat/completions'],
    [35, '/v1/text/chatcompletion_v2'],
    [40, '/v1/chat/completions'],
    [43, '/v1/chat/completions'],
  ])('type %i goes to %s with a Bearer key', async (type, path) => {
    const model = `m-type-${type}`;
    const channel = await addChannel(model, { type });
    const answer = await chat(model);
    expect(answer.choices).toHaveLength(1);
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe(path);
    expect(sent.headers['authorization']).toBe(`Bearer sk-${model}`);
    if (type === 20) expect(sent.headers['x-title']).toBe('Tollgate');
    expect((await receiptFor(model)).channelId).toBe(channel);
  });

  it('rerank relays to /v1/rerank and bills the prompt tokens the upstream reports', async () => {
    upstream.setDefaults({ usage: { prompt_tokens: 64 } });
    const channel = await addChannel('m-rerank', { type: 38 });
    const res = await request(t.url)
      .post('/v1/rerank')
      .set('Authorization', `Bearer sk-${key}`)
      .send({
        model: 'm-rerank',
        query: 'red apple',
        documents: ['a blue car', 'a red apple'],
        top_n: 1,
      });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      expect.objectContaining({ index: 1, document: { text: 'a red apple' } }),
    ]);
    expect(upstream.lastRequest()).toMatchObject({ path: '/v1/rerank', key: 'sk-m-rerank' });
    expect(await receiptFor('m-rerank')).toMatchObject({
      channelId: channel,
      endpoint: '/v1/rerank',
      promptTokens: 64,
      completionTokens: 0,
      quota: Math.round(64 * RATIO),
    });
  });

  it("the channel's status-code mapping changes the status the client sees, not the error", async () => {
    await addChannel('m-mapped', { status_code_mapping: JSON.stringify({ '400': '500' }) });
    upstream.forModel('m-mapped', {
      status: 400,
      errorBody: {
        error: { message: 'context too long', type: 'invalid_request_error', code: 'too_long' },
      },
    });
    const res = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer sk-${key}`)
      .send({ model: 'm-mapped', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'too_long' });
    expect(res.body.error.message).toContain('context too long');
    // A failed request is not billed.
    expect(receipts().some((r) => r.model === 'm-mapped')).toBe(false);
  });

  it('the failure budget: off by default 5xx never disable; on, N failures in the window disable with the reason', async () => {
    await option('AutomaticDisableChannelEnabled', 'true');
    try {
      const steady = await addChannel('m-steady', {});
      upstream.forModel('m-steady', { fail: 'server_error' });
      for (let i = 0; i < 4; i++)
        await expect(chat('m-steady')).rejects.toMatchObject({ status: 500 });
      expect(routing.channel(steady)?.status).toBe(1);

      await option('ChannelFailureBudgetCount', '3');
      await option('ChannelFailureBudgetWindowSeconds', '30');
      const flaky = await addChannel('m-flaky', {});
      upstream.forModel('m-flaky', { fail: 'server_error' });
      for (let i = 0; i < 2; i++)
        await expect(chat('m-flaky')).rejects.toMatchObject({ status: 500 });
      expect(routing.channel(flaky)?.status).toBe(1);
      await expect(chat('m-flaky')).rejects.toMatchObject({ status: 500 });
      await waitUntil(() => routing.channel(flaky)?.status === 3, 'the flaky channel disabled');
      expect(routing.candidates('default', 'm-flaky')).toEqual([]);
      const stored = (await root.get(`/api/channel/${flaky}`)).body.data as { other_info: string };
      expect(stored.other_info).toContain('3 failures in 30s on m-flaky');
      // Another channel × model keeps its own count: the steady one is still enabled.
      expect(routing.channel(steady)?.status).toBe(1);
    } finally {
      await option('AutomaticDisableChannelEnabled', 'false');
      await option('ChannelFailureBudgetCount', '0');
    }
  });
});
