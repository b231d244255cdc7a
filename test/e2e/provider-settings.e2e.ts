/**
 * new-api's provider settings through the whole app: `claude.*`, `gemini.*` and
 * `global.pass_through_request_enabled`, each set live with PUT /api/option/ as root, then a relay
 * call, then what the mock upstream received. With the options at their defaults the providers get
 * new-api's default behaviour.
 */
import { countText } from '@tollgate/relay';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { waitUntil } from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  type Receipt,
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

const HAIKU = 'claude-3-5-haiku-20241022';
const THINKING = 'claude-3-7-sonnet-20250219-thinking';
const GEMINI = 'gemini-2.0-flash';
const MAPPED = 'gpt-4o-mini';
const RATIOS = { [HAIKU]: 0.5, [THINKING]: 1.5, [GEMINI]: 0.05, [MAPPED]: 0.075 };
const hello = [{ role: 'user', content: 'hello' }];

interface ChatChunk {
  choices: Array<{ delta?: { content?: string } }>;
}

describe('relay: provider settings (claude.*, gemini.*, global.pass_through_request_enabled)', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let key: string;
  let userId: number;

  const put = (k: string, value: string) => root.put('/api/option/', { key: k, value });
  const stored = async (k: string) =>
    ((await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>).find(
      (o) => o.key === k,
    )?.value;
  /** Sets options for one test and puts the previous values back after it. */
  async function withOptions(values: Record<string, string>, body: () => Promise<void>) {
    const before: Record<string, string | undefined> = {};
    for (const [k, value] of Object.entries(values)) {
      before[k] = await stored(k);
      expect({ k, ...(await put(k, value)).body }).toMatchObject({ k, success: true });
    }
    try {
      await body();
    } finally {
      for (const k of Object.keys(values)) await put(k, before[k] ?? '');
    }
  }

  async function relay(path: string, body: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer sk-${key}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  }
  const chat = (body: Record<string, unknown>) => relay('/v1/chat/completions', body);
  const messages = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    relay('/v1/messages', body, { 'anthropic-version': '2023-06-01', ...headers });
  /** The one request the mock received on `suffix` since the test began. */
  function received(suffix: string) {
    const all = upstream.requestsTo(suffix);
    expect(all).toHaveLength(1);
    return all[0]!;
  }
  const sentBody = (suffix: string) => received(suffix).body as Record<string, unknown>;

  const receipts = (): Receipt[] => storedReceipts(t.dataDir, userId);

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    const routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    expect((await put('ModelRatio', JSON.stringify(RATIOS))).body).toMatchObject({ success: true });
    expect((await put('QuotaForNewUser', '100000000')).body).toMatchObject({ success: true });
    const channel = (body: Record<string, unknown>) =>
      addRelayChannel(root, routing, { base_url: upstream.url, group: 'default', ...body });
    await channel({
      type: 14,
      name: 'anthropic',
      key: 'sk-ant-up',
      models: `${HAIKU},${THINKING}`,
    });
    await channel({ type: 24, name: 'gemini', key: 'AIza-up', models: GEMINI });
    await channel({
      type: 1,
      name: 'openai',
      key: 'sk-openai-up',
      models: MAPPED,
      model_mapping: JSON.stringify({ [MAPPED]: 'gpt-4o-mini-upstream' }),
    });
    const web = await registerAndLogin(t.url, 'provsettings1');
    userId = web.userId;
    ({ key } = await createRelayToken(web, { name: 'k', unlimited_quota: true }));
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  beforeEach(() => upstream.reset());

  it("at their defaults: new-api's behaviour (8192 max_tokens, no extra header, safety OFF, v1beta)", async () => {
    expect((await chat({ model: HAIKU, messages: hello })).status).toBe(200);
    const claude = received('/v1/messages');
    expect(claude.body).toMatchObject({ model: HAIKU, max_tokens: 8192 });
    expect((claude.body as Record<string, unknown>).thinking).toBeUndefined();
    expect(claude.headers['anthropic-beta']).toBeUndefined();

    expect((await chat({ model: GEMINI, messages: hello })).status).toBe(200);
    const gemini = received(':generateContent');
    expect(gemini.path).toBe(`/v1beta/models/${GEMINI}:generateContent`);
    expect((gemini.body as Record<string, unknown>).safetySettings).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' },
      { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'OFF' },
      { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'OFF' },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'OFF' },
    ]);

    // The OpenAI wire: the channel's mapping in the body (no pass-through).
    expect((await chat({ model: MAPPED, messages: hello })).status).toBe(200);
    expect(sentBody('/chat/completions').model).toBe('gpt-4o-mini-upstream');
  });

  it('claude.model_headers_settings: the client model’s headers on converted and native calls', async () => {
    const headers = JSON.stringify({ [HAIKU]: { 'anthropic-beta': ['output-128k-2025-02-19'] } });
    await withOptions({ 'claude.model_headers_settings': headers }, async () => {
      expect((await chat({ model: HAIKU, messages: hello })).status).toBe(200);
      expect(received('/v1/messages').headers['anthropic-beta']).toBe('output-128k-2025-02-19');
      upstream.reset();
      const native = await messages(
        { model: HAIKU, max_tokens: 50, messages: hello },
        { 'anthropic-beta': 'prompt-caching-2024-07-31' },
      );
      expect(native.status).toBe(200);
      expect(received('/v1/messages').headers['anthropic-beta']).toBe(
        'prompt-caching-2024-07-31,output-128k-2025-02-19',
      );
    });
    // Back to the default: no header.
    upstream.reset();
    expect((await chat({ model: HAIKU, messages: hello })).status).toBe(200);
    expect(received('/v1/messages').headers['anthropic-beta']).toBeUndefined();
  });

  it('claude.default_max_tokens: the model’s entry (or default) when the client gave none', async () => {
    await withOptions(
      { 'claude.default_max_tokens': JSON.stringify({ default: 1000, [HAIKU]: 321 }) },
      async () => {
        expect((await chat({ model: HAIKU, messages: hello })).status).toBe(200);
        expect(sentBody('/v1/messages').max_tokens).toBe(321);
        upstream.reset();
        expect((await chat({ model: HAIKU, messages: hello, max_tokens: 64 })).status).toBe(200);
        expect(sentBody('/v1/messages').max_tokens).toBe(64);
      },
    );
  });

  it('claude.thinking_adapter_*: <model>-thinking goes as the base model with thinking; billed as asked', async () => {
    const before = receipts().length;
    await withOptions({ 'claude.thinking_adapter_budget_tokens_percentage': '0.5' }, async () => {
      const res = await chat({ model: THINKING, messages: hello, max_tokens: 4000, top_p: 0.3 });
      expect(res.status).toBe(200);
      const body = sentBody('/v1/messages');
      expect(body).toMatchObject({
        model: 'claude-3-7-sonnet-20250219',
        max_tokens: 4000,
        thinking: { type: 'enabled', budget_tokens: 2000 },
        temperature: 1,
      });
      expect(body.top_p).toBeUndefined();
    });
    await waitUntil(() => receipts().length > before, 'a receipt', 10_000);
    expect(receipts()[before]).toMatchObject({
      model: THINKING,
      upstreamModel: 'claude-3-7-sonnet-20250219',
    });
    upstream.reset();
    await withOptions({ 'claude.thinking_adapter_enabled': 'false' }, async () => {
      expect((await chat({ model: THINKING, messages: hello })).status).toBe(200);
      const body = sentBody('/v1/messages');
      expect(body.model).toBe(THINKING);
      expect(body.thinking).toBeUndefined();
    });
  });

  it('gemini.safety_settings and gemini.version_settings: on the body and in the URL', async () => {
    await withOptions(
      {
        'gemini.safety_settings': JSON.stringify({
          default: 'BLOCK_NONE',
          HARM_CATEGORY_HARASSMENT: 'BLOCK_ONLY_HIGH',
        }),
        'gemini.version_settings': JSON.stringify({ default: 'v1', [GEMINI]: 'v1alpha' }),
      },
      async () => {
        expect((await chat({ model: GEMINI, messages: hello, stream: true })).status).toBe(200);
        const sent = received(':streamGenerateContent');
        expect(sent.path).toBe(`/v1alpha/models/${GEMINI}:streamGenerateContent`);
        expect((sent.body as Record<string, unknown>).safetySettings).toEqual([
          { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' },
          { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' },
          { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'BLOCK_NONE' },
          { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_NONE' },
        ]);
      },
    );
  });

  it('global.pass_through_request_enabled: the client’s body goes as it came, on every path, but for the output ceiling', async () => {
    const openai = `{"model":"${MAPPED}","messages":[{"role":"user","content":"hello"}],"stream":true}`;
    await withOptions({ 'global.pass_through_request_enabled': 'true' }, async () => {
      // OpenAI wire: no mapped model in the body, no stream_options added; the one change is the
      // model's maximum output (ModelMaxOutputTokens' default for gpt-4o*) as the ceiling.
      expect((await chat(JSON.parse(openai) as Record<string, unknown>)).status).toBe(200);
      expect(sentBody('/chat/completions')).toEqual({ ...JSON.parse(openai), max_tokens: 16384 });
      upstream.reset();
      // Converted (OpenAI client → Anthropic channel): no conversion, as new-api skips it.
      const asked = { model: HAIKU, messages: hello, max_tokens: 20 };
      await chat(asked);
      expect(sentBody('/v1/messages')).toEqual(asked);
      upstream.reset();
      // Native Anthropic: the client's bytes, the -thinking model not adapted.
      const native = { model: THINKING, max_tokens: 30, messages: hello };
      expect((await messages(native)).status).toBe(200);
      expect(sentBody('/v1/messages')).toEqual(native);
    });
    // Off again: converted as usual.
    upstream.reset();
    expect((await chat({ model: HAIKU, messages: hello, max_tokens: 20 })).status).toBe(200);
    expect(sentBody('/v1/messages')).toMatchObject({ model: HAIKU, max_tokens: 20 });
    expect(sentBody('/v1/messages').messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    ]);
  });

  it('global.pass_through_request_enabled: a stream the upstream reports no usage for is billed on its whole text, counted as it passed', async () => {
    // Past its bytes' bound (a few events at max_tokens 300), each event is counted as it passes.
    const content =
      "We'll SAY it: don't stop at 12345, ʰTʰs or éal — 今天的天气很好，我们去散步。 ".repeat(3);
    await withOptions({ 'global.pass_through_request_enabled': 'true' }, async () => {
      upstream.setDefaults({ chunks: 40, content, chunkIntervalMs: 2 });
      const before = receipts().length;
      const res = await chat({ model: MAPPED, messages: hello, stream: true, max_tokens: 300 });
      expect(res.status).toBe(200);
      expect(sentBody('/chat/completions')).not.toHaveProperty('stream_options');
      const text = res.text
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map((line) => (JSON.parse(line.slice(6)) as ChatChunk).choices[0]?.delta?.content ?? '')
        .join('');
      expect(text).toBe(content);
      await waitUntil(() => receipts().length > before, 'the receipt', 10_000);
      expect(receipts().at(-1)).toMatchObject({
        stream: true,
        estimated: true,
        completionTokens: countText(content),
      });
    });
  });

  it('bad values get the envelope and change nothing', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['claude.default_max_tokens', '{"default":-1}', /不是合法的 JSON 字符串/],
      ['claude.model_headers_settings', '{"m":{"anthropic-beta":"x"}}', /不是合法的 JSON 字符串/],
      ['gemini.safety_settings', '{"default":"SOMETIMES"}', /只能是/],
      ['gemini.version_settings', 'v1', /不是合法的 JSON 字符串/],
      ['claude.thinking_adapter_budget_tokens_percentage', '2', /不能大于 1/],
      ['global.pass_through_request_enabled', 'maybe', /.+/],
    ];
    for (const [k, value, message] of cases) {
      const before = await stored(k);
      const res = await put(k, value);
      expect({ k, ...res.body }).toMatchObject({
        k,
        success: false,
        message: expect.stringMatching(message),
      });
      expect(await stored(k)).toBe(before);
    }
    // Still the defaults: nothing was applied.
    expect((await chat({ model: HAIKU, messages: hello })).status).toBe(200);
    expect(sentBody('/v1/messages').max_tokens).toBe(8192);
  });
});
