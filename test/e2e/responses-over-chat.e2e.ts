/**
 * The Responses API on channels that have none (Anthropic, Gemini): the official openai SDK's
 * `responses.create`, JSON and streamed, with a tool round trip, through the chat hub to the
 * mock provider wires. Each call is billed once, on the provider's usage.
 */
import { MOCK_THOUGHT, MockUpstream } from '@tollgate/testing/mock-upstream';
import type OpenAI from 'openai';
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

const CLAUDE = 'claude-sonnet-4-5';
const GEMINI = 'gemini-2.5-flash';
const RATIO = { [CLAUDE]: 1.5, [GEMINI]: 0.05 };
const COMPLETION = { [CLAUDE]: 5, [GEMINI]: 4 };
const quotaOf = (model: keyof typeof RATIO, prompt: number, completion: number) =>
  Math.max(1, Math.round((prompt + completion * COMPLETION[model]) * RATIO[model]));

const WEATHER_TOOL = {
  type: 'function' as const,
  name: 'weather',
  description: 'The weather in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
  strict: true,
};

describe('Responses API through the chat hub (openai SDK, Anthropic and Gemini channels)', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let userId: number;
  let sdk: OpenAI;
  const receipts = (): Receipt[] => storedReceipts(t.dataDir, userId);

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    const routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    for (const [key, value] of [
      ['ModelRatio', RATIO],
      ['CompletionRatio', COMPLETION],
      ['QuotaForNewUser', 5_000_000],
    ] as const) {
      const res = await root.put('/api/option/', { key, value: JSON.stringify(value) });
      expect(res.body).toMatchObject({ success: true });
    }
    const base = { base_url: upstream.url, group: 'default' };
    await addRelayChannel(root, routing, {
      ...base,
      type: 14,
      name: 'claude',
      key: 'sk-ant-up',
      models: CLAUDE,
    });
    await addRelayChannel(root, routing, {
      ...base,
      type: 24,
      name: 'gemini',
      key: 'AIza-up',
      models: GEMINI,
    });
    const web = await registerAndLogin(t.url, 'responses1');
    userId = web.userId;
    const { key } = await createRelayToken(web, { name: 'codex', unlimited_quota: true });
    sdk = relaySdk(t.url, key);
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  beforeEach(() => upstream.reset());

  it.each([
    [CLAUDE, '/v1/messages'],
    [GEMINI, `/v1beta/models/${GEMINI}:generateContent`],
  ] as const)('%s: JSON, a tool round trip, billed once a call', async (model, path) => {
    upstream.setDefaults({
      content: 'Oslo is cold.',
      usage: { prompt_tokens: 40, completion_tokens: 6 },
      toolCall: { name: 'weather', arguments: { city: 'Oslo' } },
    });
    const before = receipts().length;
    const first = await sdk.responses.create({
      model,
      instructions: 'Answer with the tool.',
      input: 'Weather in Oslo?',
      tools: [WEATHER_TOOL],
      max_output_tokens: 500,
    });
    expect(upstream.lastRequest()!.path).toBe(path);
    expect(first).toMatchObject({ object: 'response', status: 'completed', model });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'weather' });
    if (call?.type !== 'function_call') throw new Error('no function call');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Oslo' });
    expect(call.call_id).not.toBe('');

    // The round trip: the call and its output go back; the provider sees a well-formed pair.
    const second = await sdk.responses.create({
      model,
      instructions: 'Answer with the tool.',
      input: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          type: 'function_call',
          call_id: call.call_id,
          name: call.name,
          arguments: call.arguments,
        },
        { type: 'function_call_output', call_id: call.call_id, output: '-3°C, snow' },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(second.output_text).toBe('Oslo is cold.');
    expect(second.usage).toMatchObject({ input_tokens: 40, output_tokens: 6, total_tokens: 46 });
    const sent = upstream.lastRequest()!.body as Record<string, unknown>;
    expect(JSON.stringify(sent)).toContain('-3°C, snow');
    if (model === CLAUDE) {
      expect(sent).toMatchObject({ system: [{ type: 'text', text: 'Answer with the tool.' }] });
      expect(sent.messages).toMatchObject([
        { role: 'user' },
        { role: 'assistant', content: [{ type: 'tool_use', id: call.call_id, name: 'weather' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.call_id }] },
      ]);
    }
    await waitUntil(() => receipts().length >= before + 2, 'two receipts');
    const rows = receipts().slice(before);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [r.endpoint, r.model, r.quota])).toEqual([
      ['/v1/responses', model, quotaOf(model, 40, 6)],
      ['/v1/responses', model, quotaOf(model, 40, 6)],
    ]);
  });

  it.each([CLAUDE, GEMINI] as const)(
    '%s: streamed, the Responses event sequence with usage',
    async (model) => {
      upstream.setDefaults({
        content: 'Blue light scatters.',
        chunks: 3,
        usage: { prompt_tokens: 9, completion_tokens: 5 },
      });
      const before = receipts().length;
      const stream = await sdk.responses.create({
        model,
        input: 'Why is the sky blue?',
        max_output_tokens: 4000,
        reasoning: { effort: 'low' },
        stream: true,
      });
      const types: string[] = [];
      let text = '';
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed') completed = event.response;
      }
      expect(text).toBe('Blue light scatters.');
      expect(types[0]).toBe('response.created');
      expect(types).toContain('response.output_text.done');
      expect(types[types.length - 1]).toBe('response.completed');
      expect(completed?.usage).toMatchObject({ input_tokens: 9, output_tokens: 5 });
      expect(completed?.output_text ?? text).toBe('Blue light scatters.');
      if (model === CLAUDE) {
        // Effort → thinking within the ceiling; the thought comes back as a reasoning item.
        expect(upstream.lastRequest()!.body).toMatchObject({
          max_tokens: 4000,
          thinking: { type: 'enabled', budget_tokens: 1024 },
        });
        expect(completed?.output[0]).toMatchObject({
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: MOCK_THOUGHT }],
        });
      } else {
        expect(upstream.lastRequest()!.query).toMatchObject({ alt: 'sse' });
        expect(upstream.lastRequest()!.body).toMatchObject({
          generationConfig: { thinkingConfig: { thinkingBudget: 1024 } },
        });
      }
      // A streamed function call: its arguments in deltas, the item done with the whole of them.
      upstream.setDefaults({
        toolCall: { name: 'weather', arguments: { city: 'Rome' } },
        usage: { prompt_tokens: 30, completion_tokens: 8 },
      });
      const calling = await sdk.responses.create({
        model,
        input: 'Weather in Rome?',
        tools: [WEATHER_TOOL],
        stream: true,
      });
      let deltas = '';
      let item: unknown;
      for await (const event of calling) {
        if (event.type === 'response.function_call_arguments.delta') deltas += event.delta;
        if (event.type === 'response.output_item.done') item = event.item;
      }
      expect(JSON.parse(deltas)).toEqual({ city: 'Rome' });
      expect(item).toMatchObject({ type: 'function_call', name: 'weather', arguments: deltas });
      await waitUntil(() => receipts().length >= before + 2, 'two receipts');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        receipts()
          .slice(before)
          .map((r) => [r.endpoint, r.quota]),
      ).toEqual([
        ['/v1/responses', quotaOf(model, 9, 5)],
        ['/v1/responses', quotaOf(model, 30, 8)],
      ]);
    },
  );

  it('refuses previous_response_id on a channel without a store, clearly and without a charge', async () => {
    const before = receipts().length;
    const refused = await sdk.responses
      .create({ model: CLAUDE, input: 'And then?', previous_response_id: 'resp_abc' })
      .then(
        () => undefined,
        (error: unknown) => error as { status: number; error: { code: string; message: string } },
      );
    expect(refused?.status).toBe(400);
    expect(refused?.error).toMatchObject({ code: 'unsupported_on_channel' });
    expect(refused?.error.message).toMatch(/previous_response_id/);
    expect(upstream.requests).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receipts()).toHaveLength(before);
  });
});
