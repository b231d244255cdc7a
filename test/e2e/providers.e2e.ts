/**
 * Converting providers and the Anthropic ingress end to end: the whole gateway, channels of
 * Anthropic / Bedrock / Ollama / Cohere type against the mock upstream speaking each wire, and the
 * official SDKs as clients (@anthropic-ai/sdk on /v1/messages, openai on /v1/chat/completions).
 * Every charge is the formula on the provider's usage; the log row shows the cache counts.
 */
import { generateKeyPairSync } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { MOCK_THOUGHT, MockUpstream } from '@tollgate/testing/mock-upstream';
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

const CLAUDE = 'claude-3-5-sonnet-20241022';
const HAIKU = 'claude-3-5-haiku-20241022';
/** A generation that refuses any prefill (the mock refuses it as Anthropic does). */
const OPUS_46 = 'claude-opus-4-6';
const RATIOS = {
  [CLAUDE]: 1.5,
  [HAIKU]: 0.5,
  [OPUS_46]: 2.5,
  'gpt-4o-mini': 0.075,
  'llama3.2': 0.1,
  'command-r': 0.25,
  'gemini-2.0-flash': 0.05,
  'ernie-4.0-8k': 0.6,
  'qwen-plus': 0.4,
  'hunyuan-lite': 0.1,
  'dify-app': 1,
  'glm-4': 0.5,
  'gemini-vertex': 0.05,
  'SparkDesk-v3.5': 0.2,
  '@cf/meta/llama-3.1-8b-instruct': 0.05,
};
const COMPLETION = { [CLAUDE]: 5, [HAIKU]: 5, 'gpt-4o-mini': 4, 'gemini-2.0-flash': 4 };
const CACHE = { [CLAUDE]: 0.1, [HAIKU]: 0.1, 'gemini-2.0-flash': 0.25 };
const CACHE_WRITE = { [CLAUDE]: 1.25, [HAIKU]: 1.25 };

/** Ratio mode with cache reads and writes, as docs/relay.md states it. */
function formula(
  model: keyof typeof RATIOS,
  prompt: number,
  completion: number,
  cached = 0,
  written = 0,
): number {
  const cacheRatio = (CACHE as Record<string, number>)[model] ?? 1;
  const writeRatio = (CACHE_WRITE as Record<string, number>)[model] ?? 1.25;
  const completionRatio = (COMPLETION as Record<string, number>)[model] ?? 1;
  const weighted =
    prompt -
    cached -
    written +
    cached * cacheRatio +
    written * writeRatio +
    completion * completionRatio;
  return Math.max(1, Math.round(weighted * RATIOS[model]));
}

describe('providers (whole app, Anthropic and OpenAI SDKs, provider-format mocks)', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let routing: RoutingTable;
  let key: string;
  let userId: number;
  let web: ConsoleClient;
  let anthropic: Anthropic;

  const option = async (name: string, value: unknown) => {
    const res = await root.put('/api/option/', { key: name, value: JSON.stringify(value) });
    expect(res.body).toMatchObject({ success: true });
  };
  const channel = (body: Record<string, unknown>) =>
    addRelayChannel(root, routing, { base_url: upstream.url, group: 'default', ...body });
  const receipts = (): Receipt[] => storedReceipts(t.dataDir, userId);
  async function nextReceipt(before: number): Promise<Receipt> {
    await waitUntil(() => receipts().length > before, 'a receipt', 10_000);
    return receipts()[before]!;
  }

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    await option('ModelRatio', RATIOS);
    await option('CompletionRatio', COMPLETION);
    await option('CacheRatio', CACHE);
    await option('CacheCreationRatio', CACHE_WRITE);
    const quota = await root.put('/api/option/', { key: 'QuotaForNewUser', value: '5000000' });
    expect(quota.body).toMatchObject({ success: true });
    await channel({ type: 14, name: 'anthropic', key: 'sk-ant-upstream', models: CLAUDE });
    await channel({ type: 14, name: 'anthropic-4-6', key: 'sk-ant-upstream', models: OPUS_46 });
    await channel({ type: 1, name: 'openai', key: 'sk-openai-upstream', models: 'gpt-4o-mini' });
    await channel({
      type: 33,
      name: 'bedrock',
      key: 'AKIDMOCK|secretmock|us-east-1',
      models: HAIKU,
    });
    await channel({ type: 4, name: 'ollama', key: 'ollama-proxy-key', models: 'llama3.2' });
    await channel({ type: 34, name: 'cohere', key: 'co-upstream', models: 'command-r' });
    await channel({ type: 24, name: 'gemini', key: 'AIza-upstream', models: 'gemini-2.0-flash' });
    web = await registerAndLogin(t.url, 'providers1');
    userId = web.userId;
    ({ key } = await createRelayToken(web, { name: 'sdk', unlimited_quota: true }));
    anthropic = new Anthropic({ apiKey: `sk-${key}`, baseURL: t.url, maxRetries: 0 });
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  beforeEach(() => upstream.reset());

  it('Anthropic SDK → Anthropic channel, natively: the answer as the upstream sent it, cache tokens billed at their ratios', async () => {
    upstream.setDefaults({
      content: 'Bonjour',
      usage: {
        prompt_tokens: 4100,
        completion_tokens: 40,
        cached_tokens: 3000,
        cache_creation_tokens: 1000,
      },
    });
    const before = receipts().length;
    const message = await anthropic.messages.create(
      {
        model: CLAUDE,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Say hello in French' }],
      },
      {
        headers: {
          'anthropic-version': '2023-06-01',
          'anthropic-beta': 'prompt-caching-2024-07-31',
        },
      },
    );
    expect(message.content).toEqual([{ type: 'text', text: 'Bonjour' }]);
    expect(message.usage).toMatchObject({
      input_tokens: 100,
      cache_read_input_tokens: 3000,
      cache_creation_input_tokens: 1000,
      output_tokens: 40,
    });
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.key).toBe('sk-ant-upstream');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({ model: CLAUDE, max_tokens: 100 });

    const receipt = await nextReceipt(before);
    expect(receipt).toMatchObject({
      endpoint: '/v1/messages',
      model: CLAUDE,
      promptTokens: 4100,
      completionTokens: 40,
      cachedTokens: 3000,
      cacheCreationTokens: 1000,
      cacheRatio: 0.1,
      cacheCreationRatio: 1.25,
      estimated: false,
      quota: formula(CLAUDE, 4100, 40, 3000, 1000),
    });
    // The log row's `other` shows the cache counts.
    await waitUntil(async () => {
      const rows = (await web.get('/api/log/self?p=0&size=10')).body.data.items as Array<{
        other: string;
      }>;
      return rows.some((row) => {
        const other = JSON.parse(row.other) as Record<string, unknown>;
        return other.cache_tokens === 3000 && other.cache_creation_tokens === 1000;
      });
    }, 'log row with cache counts');
  });

  it('Anthropic SDK streams from an Anthropic channel; usage from message_start and message_delta', async () => {
    upstream.setDefaults({
      chunks: 3,
      content: 'abcdef',
      usage: { prompt_tokens: 50, completion_tokens: 3, cached_tokens: 20 },
    });
    const before = receipts().length;
    const stream = anthropic.messages.stream({
      model: CLAUDE,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const final = await stream.finalMessage();
    expect(text).toBe('abcdef');
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(3);
    const receipt = await nextReceipt(before);
    expect(receipt).toMatchObject({
      stream: true,
      promptTokens: 50,
      cachedTokens: 20,
      completionTokens: 3,
      quota: formula(CLAUDE, 50, 3, 20),
    });
    expect(receipt.firstTokenMs).not.toBeNull();
  });

  it('Anthropic SDK → OpenAI channel: converted both ways, JSON and stream', async () => {
    upstream.setDefaults({
      content: 'Hi there',
      chunks: 2,
      usage: { prompt_tokens: 30, completion_tokens: 2 },
    });
    const before = receipts().length;
    const message = await anthropic.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      system: 'Be kind.',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o-mini',
      content: [{ type: 'text', text: 'Hi there' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 30, output_tokens: 2 },
    });
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.key).toBe('sk-openai-upstream');
    expect(sent.body).toMatchObject({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      messages: [
        { role: 'system', content: 'Be kind.' },
        { role: 'user', content: 'Hello' },
      ],
    });

    const stream = anthropic.messages.stream({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const final = await stream.finalMessage();
    expect(text).toBe('Hi there');
    expect(final.usage).toMatchObject({ input_tokens: 30, output_tokens: 2 });
    expect(upstream.lastRequest()!.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    await waitUntil(() => receipts().length >= before + 2, 'two receipts');
    for (const receipt of receipts().slice(before)) {
      expect(receipt).toMatchObject({
        endpoint: '/v1/messages',
        promptTokens: 30,
        completionTokens: 2,
        estimated: false,
        quota: formula('gpt-4o-mini', 30, 2),
      });
    }
  });

  it('openai SDK → Anthropic channel: chat completions converted, usage chunk when asked', async () => {
    const sdk = relaySdk(t.url, key);
    upstream.setDefaults({
      content: 'Ciao',
      chunks: 2,
      usage: { prompt_tokens: 12, completion_tokens: 2 },
    });
    const before = receipts().length;
    const chat = await sdk.chat.completions.create({
      model: CLAUDE,
      messages: [
        { role: 'system', content: 'Italian only.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 20,
    });
    expect(chat.choices[0]!.message.content).toBe('Ciao');
    expect(chat.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 2 });
    expect(upstream.lastRequest()!.body).toMatchObject({
      model: CLAUDE,
      system: [{ type: 'text', text: 'Italian only.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      max_tokens: 20,
    });
    const stream = await sdk.chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Ciao');
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 2 });
    await waitUntil(() => receipts().length >= before + 2, 'two receipts');
    expect(
      receipts()
        .slice(before)
        .map((r) => r.quota),
    ).toEqual([formula(CLAUDE, 12, 2), formula(CLAUDE, 12, 2)]);
  });

  it('reasoning both ways: reasoning_effort to Anthropic as thinking, Claude Code thinking to OpenAI and Gemini', async () => {
    const sdk = relaySdk(t.url, key);
    upstream.setDefaults({
      content: 'Blue',
      chunks: 1,
      usage: { prompt_tokens: 9, completion_tokens: 5 },
    });
    const before = receipts().length;
    // openai SDK → Anthropic: thinking with a budget below max_tokens (the mock refuses any other).
    const chat = await sdk.chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
      max_tokens: 4000,
      reasoning_effort: 'high',
      temperature: 0.2,
    });
    const sent = upstream.lastRequest()!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 3200 },
    });
    expect(sent).not.toHaveProperty('temperature');
    const message = chat.choices[0]!.message as {
      content: string | null;
      reasoning_content?: string;
    };
    expect(message).toMatchObject({ content: 'Blue', reasoning_content: MOCK_THOUGHT });
    const stream = await sdk.chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
      max_tokens: 4000,
      reasoning_effort: 'low',
      stream: true,
    });
    let reasoning = '';
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as
        { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      text += delta?.content ?? '';
    }
    expect({ reasoning, text }).toEqual({ reasoning: MOCK_THOUGHT, text: 'Blue' });
    expect(upstream.lastRequest()!.body).toMatchObject({ thinking: { budget_tokens: 1024 } });
    await waitUntil(() => receipts().length >= before + 2, 'two receipts');
    expect(
      receipts()
        .slice(before)
        .map((r) => r.quota),
    ).toEqual([formula(CLAUDE, 9, 5), formula(CLAUDE, 9, 5)]);

    // Claude-Code-shaped Messages with thinking → an OpenAI and a Gemini channel.
    const claudeCode = (model: string) =>
      anthropic.messages.create({
        model,
        // Under the SDK's 21,333 limit for a call that is not streamed.
        max_tokens: 16_000,
        thinking: { type: 'enabled', budget_tokens: 10_000 },
        messages: [{ role: 'user', content: 'Plan the refactor.' }],
      });
    upstream.reset();
    await claudeCode('gpt-4o-mini');
    expect(upstream.lastRequest()!.body).toMatchObject({ reasoning_effort: 'high' });
    upstream.reset();
    await claudeCode('gemini-2.0-flash');
    expect(upstream.lastRequest()!.body).toMatchObject({
      generationConfig: { thinkingConfig: { thinkingBudget: 24_576, includeThoughts: true } },
    });

    // A converted thought (no signature) replayed to the Anthropic channel is dropped, not refused.
    upstream.reset();
    const replayed = await anthropic.messages.create({
      model: CLAUDE,
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Plan the refactor.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'converted reasoning', signature: '' },
            { type: 'text', text: 'Step one.' },
          ],
        },
        { role: 'user', content: 'Go on.' },
      ],
    });
    expect(replayed.content).toEqual([{ type: 'text', text: expect.any(String) }]);
    const replay = JSON.stringify(upstream.lastRequest()!.body);
    expect(replay).toContain('Step one.');
    expect(replay).not.toContain('converted reasoning');
    // Every call above billed once: two chats, two Claude Code calls, the replay.
    await waitUntil(() => receipts().length >= before + 5, 'five receipts');
    expect(receipts().slice(before)).toHaveLength(5);
  });

  it('JSON mode to Anthropic: response_format as an instruction and a `{` prefill (none on Claude 4.6), JSON and stream', async () => {
    const sdk = relaySdk(t.url, key);
    const before = receipts().length;
    const ask = { model: CLAUDE, messages: [{ role: 'user' as const, content: 'Status?' }] };
    const format = { type: 'json_object' as const };
    const chat = await sdk.chat.completions.create({ ...ask, response_format: format });
    const sent = upstream.lastRequest()!.body as { system: unknown[]; messages: unknown[] };
    expect(sent.system).toEqual([
      { type: 'text', text: expect.stringContaining('one JSON object only') },
    ]);
    expect(sent.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '{' }],
    });
    expect(JSON.parse(chat.choices[0]!.message.content!)).toEqual({ ok: true });
    const stream = await sdk.chat.completions.create({
      ...ask,
      response_format: format,
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(JSON.parse(text)).toEqual({ ok: true });
    expect((upstream.lastRequest()!.body as { messages: unknown[] }).messages).toHaveLength(2);
    // With thinking no prefill goes (the mock refuses both together, as Anthropic does).
    const thought = await sdk.chat.completions.create({
      ...ask,
      response_format: format,
      reasoning_effort: 'low',
      max_tokens: 4000,
    });
    expect(thought.choices[0]!.message).toMatchObject({ reasoning_content: MOCK_THOUGHT });
    expect(upstream.lastRequest()!.body).toMatchObject({
      thinking: { type: 'enabled' },
      messages: [{ role: 'user' }],
    });
    // Claude 4.6 refuses any prefill: the instruction alone asks it for JSON.
    upstream.setDefaults({ content: '{"ok":true}' });
    const newest = await sdk.chat.completions.create({
      model: OPUS_46,
      messages: ask.messages,
      response_format: format,
    });
    expect(JSON.parse(newest.choices[0]!.message.content!)).toEqual({ ok: true });
    expect(upstream.lastRequest()!.body).toMatchObject({
      model: OPUS_46,
      system: [{ type: 'text', text: expect.stringContaining('one JSON object only') }],
      messages: [{ role: 'user' }],
    });
    // One log row per call.
    await waitUntil(() => receipts().length >= before + 4, 'four receipts');
    expect(receipts().slice(before)).toHaveLength(4);
  });

  it('openai SDK → Bedrock (SigV4, event stream), Ollama (NDJSON) and Cohere channels', async () => {
    const sdk = relaySdk(t.url, key);
    upstream.setDefaults({
      content: 'ok!',
      chunks: 3,
      usage: { prompt_tokens: 9, completion_tokens: 3 },
    });
    const before = receipts().length;
    for (const model of [HAIKU, 'llama3.2', 'command-r'] as const) {
      const chat = await sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'go' }],
      });
      expect(chat.choices[0]!.message.content).toBe('ok!');
      const stream = await sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'go' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('ok!');
    }
    const paths = upstream.requests.map((r) => r.path);
    expect(paths).toEqual([
      `/model/${encodeURIComponent('anthropic.claude-3-5-haiku-20241022-v1:0')}/invoke`,
      `/model/${encodeURIComponent('anthropic.claude-3-5-haiku-20241022-v1:0')}/invoke-with-response-stream`,
      '/api/chat',
      '/api/chat',
      '/v2/chat',
      '/v2/chat',
    ]);
    expect(String(upstream.requests[0]!.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDMOCK\/\d{8}\/us-east-1\/bedrock\/aws4_request/,
    );
    await waitUntil(() => receipts().length >= before + 6, 'six receipts');
    const got = receipts().slice(before);
    for (const receipt of got) {
      expect(receipt).toMatchObject({ promptTokens: 9, completionTokens: 3, estimated: false });
      expect(receipt.quota).toBe(formula(receipt.model as keyof typeof RATIOS, 9, 3));
    }
  });

  it("errors reach Anthropic clients in Anthropic's shape", async () => {
    const stranger = new Anthropic({ apiKey: 'sk-not-a-token', baseURL: t.url, maxRetries: 0 });
    await expect(
      stranger.messages.create({
        model: CLAUDE,
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error' } },
    });

    // A body Anthropic would refuse: nothing is relayed, nothing is billed.
    const before = receipts().length;
    const res = await fetch(`${t.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': `sk-${key}` },
      body: JSON.stringify({ model: CLAUDE, max_tokens: 5 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining('messages: Field required'),
      },
    });
    expect(upstream.requests).toHaveLength(0);

    // The upstream's own failure (no retry left): the client sees it in its shape.
    upstream.next({ fail: 'server_error' }, 5);
    await expect(
      anthropic.messages.create({
        model: CLAUDE,
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({
      status: 500,
      error: { type: 'error', error: { type: 'api_error' } },
    });
    expect(receipts()).toHaveLength(before);
  });

  it('a Messages request without max_tokens gets the Claude default upstream (claude.default_max_tokens)', async () => {
    upstream.setDefaults({
      content: 'ok',
      chunks: 1,
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    });
    const before = receipts().length;
    const res = await fetch(`${t.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': `sk-${key}` },
      body: JSON.stringify({ model: CLAUDE, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(res.status).toBe(200);
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.body).toMatchObject({ model: CLAUDE, max_tokens: 8192 });
    // Its receipt is written before the next test counts receipts.
    expect(await nextReceipt(before)).toMatchObject({ model: CLAUDE, endpoint: '/v1/messages' });
  });

  it('@google/genai → Gemini channel natively and → OpenAI channel converted; cached and thought tokens billed', async () => {
    const ai = new GoogleGenAI({ apiKey: `sk-${key}`, httpOptions: { baseUrl: t.url } });
    upstream.setDefaults({
      content: 'Hola',
      chunks: 2,
      usage: {
        prompt_tokens: 200,
        completion_tokens: 30,
        cached_tokens: 120,
        reasoning_tokens: 10,
      },
    });
    const before = receipts().length;
    const answer = await ai.models.generateContent({
      model: 'gemini-2.0-flash',
      contents: 'Say hi in Spanish',
    });
    expect(answer.text).toBe('Hola');
    expect(answer.usageMetadata).toMatchObject({
      promptTokenCount: 200,
      cachedContentTokenCount: 120,
    });
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/v1beta/models/gemini-2.0-flash:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('AIza-upstream');

    let streamed = '';
    for await (const chunk of await ai.models.generateContentStream({
      model: 'gemini-2.0-flash',
      contents: 'Say hi',
    })) {
      streamed += chunk.text ?? '';
    }
    expect(streamed).toBe('Hola');
    expect(upstream.lastRequest()!.query).toMatchObject({ alt: 'sse' });

    upstream.setDefaults({
      content: 'Hi!',
      chunks: 1,
      usage: { prompt_tokens: 8, completion_tokens: 2 },
    });
    const converted = await ai.models.generateContent({ model: 'gpt-4o-mini', contents: 'Hello' });
    expect(converted.text).toBe('Hi!');
    expect(converted.usageMetadata).toMatchObject({ promptTokenCount: 8, candidatesTokenCount: 2 });
    expect(upstream.lastRequest()!.path).toBe('/v1/chat/completions');
    expect(upstream.lastRequest()!.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello' }],
    });

    await waitUntil(() => receipts().length >= before + 3, 'three receipts');
    const [json, stream, openai] = receipts().slice(before);
    for (const receipt of [json!, stream!]) {
      expect(receipt).toMatchObject({
        endpoint: expect.stringMatching(/^\/v1beta\/models\/\{model\}:/),
        model: 'gemini-2.0-flash',
        promptTokens: 200,
        cachedTokens: 120,
        completionTokens: 30,
        reasoningTokens: 10,
        estimated: false,
        quota: formula('gemini-2.0-flash', 200, 30, 120),
      });
    }
    expect(stream!.stream).toBe(true);
    expect(openai).toMatchObject({ model: 'gpt-4o-mini', quota: formula('gpt-4o-mini', 8, 2) });
  });

  it('a Gemini stream without alt=sse is one JSON array, natively and converted; with it, SSE', async () => {
    const stream = (model: string, query = '') =>
      fetch(`${t.url}/v1beta/models/${model}:streamGenerateContent${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${key}` },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }] }),
      });
    type Element = { candidates?: { content?: { parts?: { text?: string }[] } }[] };
    const textOf = (elements: Element[]) =>
      elements
        .flatMap((e) => e.candidates ?? [])
        .flatMap((c) => c.content?.parts ?? [])
        .map((part) => part.text ?? '')
        .join('');
    upstream.setDefaults({
      content: 'Hola!',
      chunks: 3,
      usage: { prompt_tokens: 9, completion_tokens: 4 },
    });
    const before = receipts().length;
    for (const model of ['gemini-2.0-flash', 'gpt-4o-mini']) {
      const res = await stream(model);
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      const elements = JSON.parse(await res.text()) as Element[];
      expect(textOf(elements)).toBe('Hola!');
      expect(elements.at(-1)).toMatchObject({ usageMetadata: { promptTokenCount: 9 } });
      // The upstream is asked for SSE either way: usage and the reservation cut read events.
      const sent = upstream.lastRequest()!;
      if (model === 'gemini-2.0-flash') expect(sent.query).toMatchObject({ alt: 'sse' });
      else expect(sent.body).toMatchObject({ stream: true });
      const receipt = await nextReceipt(before + (model === 'gpt-4o-mini' ? 1 : 0));
      expect(receipt).toMatchObject({
        model,
        endpoint: '/v1beta/models/{model}:streamGenerateContent',
        stream: true,
        promptTokens: 9,
        completionTokens: 4,
        estimated: false,
        quota: formula(model as keyof typeof RATIOS, 9, 4),
      });
    }
    for (const model of ['gemini-2.0-flash', 'gpt-4o-mini']) {
      const res = await stream(model, '?alt=sse');
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(await res.text()).toMatch(/^data: \{/);
    }
    // An upstream that breaks mid-stream: the array still parses, Google's error element last.
    upstream.setDefaults({ breakAfterChunks: 1, chunkIntervalMs: 5 });
    const broken = JSON.parse(await (await stream('gemini-2.0-flash')).text()) as unknown[];
    upstream.setDefaults({ breakAfterChunks: undefined, chunkIntervalMs: undefined });
    expect(textOf(broken as Element[])).toBe('Ho');
    expect(broken.at(-1)).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
    await waitUntil(() => receipts().length >= before + 5, 'five receipts');
    expect(receipts()).toHaveLength(before + 5);
  });

  it('openai SDK → Gemini channel: converted JSON and stream', async () => {
    const sdk = relaySdk(t.url, key);
    upstream.setDefaults({
      content: 'abc',
      chunks: 3,
      usage: { prompt_tokens: 11, completion_tokens: 3 },
    });
    const chat = await sdk.chat.completions.create({
      model: 'gemini-2.0-flash',
      messages: [
        { role: 'system', content: 'Short answers.' },
        { role: 'user', content: 'Letters?' },
      ],
    });
    expect(chat.choices[0]!.message.content).toBe('abc');
    expect(chat.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3 });
    expect(upstream.lastRequest()!.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'Short answers.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Letters?' }] }],
    });
    const stream = await sdk.chat.completions.create({
      model: 'gemini-2.0-flash',
      messages: [{ role: 'user', content: 'Letters?' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('abc');
  });

  it("keys where each client puts them; model lists and errors in each protocol's shape", async () => {
    // Gemini: ?key= works as x-goog-api-key does; a bad key gets Google's error shape.
    const list = await fetch(`${t.url}/v1beta/models?key=sk-${key}`);
    expect(list.status).toBe(200);
    const models = ((await list.json()) as { models: Array<{ name: string }> }).models.map(
      (m) => m.name,
    );
    expect(models).toEqual(expect.arrayContaining(['models/gemini-2.0-flash', `models/${CLAUDE}`]));
    const bad = await fetch(
      `${t.url}/v1beta/models/gemini-2.0-flash:generateContent?key=sk-wrong`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }),
      },
    );
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });

    // Anthropic: /v1/models answers Anthropic's list to an Anthropic client.
    const page = await anthropic.models.list();
    expect(page.data.map((m) => m.id)).toEqual(expect.arrayContaining([CLAUDE, 'gpt-4o-mini']));
    expect(page.data[0]).toMatchObject({ type: 'model' });
    // count_tokens: the relay's estimate, nothing relayed or billed.
    const before = receipts().length;
    const counted = await anthropic.messages.countTokens({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'How many tokens is this sentence?' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(5);
    expect(upstream.requests).toHaveLength(0);
    expect(receipts()).toHaveLength(before);
    // An OpenAI client still gets OpenAI's list.
    const openaiList = await relaySdk(t.url, key).models.list();
    expect(openaiList.data[0]).toMatchObject({ object: 'model' });
  });

  it('openai SDK → /v1/responses on an OpenAI channel: bytes pass, usage from response.completed', async () => {
    const sdk = relaySdk(t.url, key);
    upstream.setDefaults({
      content: 'Hello world',
      chunks: 2,
      usage: { prompt_tokens: 40, completion_tokens: 12, cached_tokens: 16, reasoning_tokens: 4 },
    });
    // Only this endpoint's receipts: an earlier case's may still be landing.
    const responseReceipts = () => receipts().filter((r) => r.endpoint === '/v1/responses');
    const before = responseReceipts().length;
    const answer = await sdk.responses.create({
      model: 'gpt-4o-mini',
      instructions: 'Be brief.',
      input: 'Say hello',
      max_output_tokens: 50,
    });
    expect(answer.output_text).toBe('Hello world');
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body).toEqual({
      model: 'gpt-4o-mini',
      instructions: 'Be brief.',
      input: 'Say hello',
      max_output_tokens: 50,
    });

    const stream = await sdk.responses.create({
      model: 'gpt-4o-mini',
      input: 'Say hello',
      stream: true,
    });
    let text = '';
    let completed = false;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = true;
    }
    expect(text).toBe('Hello world');
    expect(completed).toBe(true);
    expect(upstream.lastRequest()!.body).not.toHaveProperty('stream_options');

    await waitUntil(() => responseReceipts().length >= before + 2, 'two receipts');
    expect(responseReceipts()).toHaveLength(before + 2);
    for (const receipt of responseReceipts().slice(before)) {
      expect(receipt).toMatchObject({
        endpoint: '/v1/responses',
        model: 'gpt-4o-mini',
        promptTokens: 40,
        cachedTokens: 16,
        completionTokens: 12,
        reasoningTokens: 4,
        estimated: false,
        quota: formula('gpt-4o-mini', 40, 12, 16),
      });
    }
  });

  it('openai SDK → Baidu (token exchange), Ali, Tencent (TC3), Dify, Zhipu (JWT) and Vertex (OAuth) channels', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const serviceAccount = JSON.stringify({
      type: 'service_account',
      project_id: 'proj-1',
      private_key: privateKey,
      client_email: 'relay@proj-1.iam.gserviceaccount.com',
      token_uri: `${upstream.url}/token`,
    });
    await channel({ type: 15, name: 'baidu', key: 'baidu-ak|baidu-sk', models: 'ernie-4.0-8k' });
    await channel({ type: 17, name: 'ali', key: 'sk-dashscope', models: 'qwen-plus' });
    await channel({
      type: 23,
      name: 'tencent',
      key: '1300000000|AKIDmock|tc-secret',
      models: 'hunyuan-lite',
    });
    await channel({ type: 37, name: 'dify', key: 'app-dify', models: 'dify-app' });
    await channel({ type: 16, name: 'zhipu', key: 'zid.zsecret', models: 'glm-4' });
    await channel({
      type: 41,
      name: 'vertex',
      key: serviceAccount,
      models: 'gemini-vertex',
      other: '{"default":"us-central1"}',
    });
    const sdk = relaySdk(t.url, key);
    upstream.setDefaults({
      content: 'fine',
      chunks: 2,
      usage: { prompt_tokens: 7, completion_tokens: 2 },
    });
    const before = receipts().length;
    const models = [
      'ernie-4.0-8k',
      'qwen-plus',
      'hunyuan-lite',
      'dify-app',
      'glm-4',
      'gemini-vertex',
    ] as const;
    for (const model of models) {
      const chat = await sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect({ model, text: chat.choices[0]!.message.content }).toEqual({ model, text: 'fine' });
      const stream = await sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect({ model, text }).toEqual({ model, text: 'fine' });
    }
    const paths = upstream.requests.map((r) => r.path);
    expect(paths.filter((path) => path === '/oauth/2.0/token')).toHaveLength(1); // cached
    expect(paths.filter((path) => path === '/token')).toHaveLength(1); // cached
    expect(paths).toEqual(
      expect.arrayContaining([
        '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro',
        '/api/v1/services/aigc/text-generation/generation',
        '/',
        '/v1/chat-messages',
        '/api/paas/v4/chat/completions',
        '/v1/projects/proj-1/locations/us-central1/publishers/google/models/gemini-vertex:generateContent',
      ]),
    );
    const zhipu = upstream.requests.find((r) => r.path === '/api/paas/v4/chat/completions')!;
    expect(String(zhipu.headers.authorization)).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    await waitUntil(() => receipts().length >= before + 12, 'twelve receipts');
    for (const receipt of receipts().slice(before)) {
      expect(receipt).toMatchObject({ promptTokens: 7, completionTokens: 2, estimated: false });
      expect(receipt.quota).toBe(formula(receipt.model as keyof typeof RATIOS, 7, 2));
    }

    // Tencent answers a failed stream request with one JSON body: the client gets the error, no bill.
    const billed = receipts().length;
    upstream.next({ fail: 'invalid_key' }, 5);
    await expect(
      sdk.chat.completions.create({
        model: 'hunyuan-lite',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      }),
    ).rejects.toMatchObject({ status: 401 });
    expect(receipts()).toHaveLength(billed);
  });

  it("Spark (18) on its HTTP API with one-api's and new-api's key and model names; Cloudflare (39) with the account id", async () => {
    await channel({
      type: 18,
      name: 'spark',
      key: 'app1|spark-secret|spark-key',
      models: 'SparkDesk-v3.5',
    });
    await channel({
      type: 39,
      name: 'cloudflare',
      key: 'cf-token',
      models: '@cf/meta/llama-3.1-8b-instruct',
      other: 'acc123',
    });
    const sdk = relaySdk(t.url, key);
    upstream.setDefaults({
      content: 'yo',
      chunks: 1,
      usage: { prompt_tokens: 5, completion_tokens: 1 },
    });
    const spark = await sdk.chat.completions.create({
      model: 'SparkDesk-v3.5',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(spark.choices[0]!.message.content).toBe('yo');
    const sentSpark = upstream.lastRequest()!;
    expect(sentSpark.path).toBe('/v1/chat/completions');
    expect(sentSpark.headers.authorization).toBe('Bearer spark-key:spark-secret');
    expect(sentSpark.body).toMatchObject({ model: 'generalv3.5' });

    const cf = await sdk.chat.completions.create({
      model: '@cf/meta/llama-3.1-8b-instruct',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(cf.choices[0]!.message.content).toBe('yo');
    const sentCf = upstream.lastRequest()!;
    expect(sentCf.path).toBe('/client/v4/accounts/acc123/ai/v1/chat/completions');
    expect(sentCf.headers.authorization).toBe('Bearer cf-token');
  });
});
