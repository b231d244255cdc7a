/**
 * A balance is a hard limit and every answer is paid for (docs/relay.md "The output ceiling",
 * docs/ledger.md "Debts"), through the whole app, the official SDKs and the mock upstream:
 *
 * - a balance, a token cap and a budget, each for exactly N answers at token prices: 10 × N
 *   concurrent calls without max_tokens to an upstream that writes until the ceiling serve exactly
 *   N — OpenAI JSON and SSE, the Anthropic ingress, a converting provider (Gemini) — and the charges
 *   are each answer's own price, every upstream request carrying the ceiling its reservation allows;
 * - an upstream that ignores the ceiling: streams are cut at the reservation and end cleanly, JSON
 *   answers are charged in full as a debt that refuses the next call until a top-up covers it.
 */
import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { countText, estimatePromptTokens, ingressCodec, type JsonObject } from '@tollgate/relay';
import { ceilingOf, MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { waitUntil } from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  relaySdk,
  storedReceipts,
  type Receipt,
} from '../support/relay-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(240_000);

const N = 3;
const CALLS = 10 * N;
/** Token prices: 0.5 per prompt token, 1 per output token (completion ratio 2). */
const MODEL = 'bill-m';
const GEMINI = 'bill-g';
/** ModelMaxOutputTokens of both: the ceiling of a call that sets none. */
const CEILING = 20;
const messages = [{ role: 'user' as const, content: 'how much is this answer?' }];

type Path =
  'openai-json' | 'openai-sse' | 'anthropic-json' | 'anthropic-sse' | 'gemini-json' | 'gemini-sse';
type Limit = 'balance' | 'token' | 'budget';

/** The prompt tokens the relay estimates for a path's body: the mock reports the same. */
function promptOf(path: Path): number {
  if (!path.startsWith('anthropic'))
    return estimatePromptTokens('chat', { model: MODEL, messages });
  const hub = ingressCodec('anthropic').toOpenAi({ model: MODEL, messages }, {}) as JsonObject;
  return estimatePromptTokens('chat', hub);
}

/** An answer's own price: (prompt + ceiling × 2) × 0.5. */
const priceOf = (prompt: number, completion = CEILING) =>
  Math.round((prompt + completion * 2) * 0.5);

describe('billing integrity', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let users = 0;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    root = await loginRoot(t.url);
    const option = async (key: string, value: string) =>
      expect((await root.put('/api/option/', { key, value })).body).toMatchObject({
        success: true,
      });
    await option('ModelRatio', JSON.stringify({ [MODEL]: 0.5, [GEMINI]: 0.5 }));
    await option('CompletionRatio', JSON.stringify({ [MODEL]: 2, [GEMINI]: 2 }));
    await option('ModelMaxOutputTokens', JSON.stringify({ '*': 4096, 'bill-*': CEILING }));
    const routing = t.app.get(RoutingTable);
    await addRelayChannel(root, routing, {
      type: 1,
      name: 'openai-wire',
      key: 'sk-upstream-bill',
      base_url: upstream.url,
      models: MODEL,
      group: 'default',
    });
    await addRelayChannel(root, routing, {
      type: 24,
      name: 'gemini',
      key: 'AIza-upstream-bill',
      base_url: upstream.url,
      models: GEMINI,
      group: 'default',
    });
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  /** A new user whose `limit` allows `quota`; the others are ample. */
  async function payer(limit: Limit, quota: number) {
    users += 1;
    const web = await registerAndLogin(t.url, `payer${users}`);
    const ample = 1_000_000_000;
    expect(
      (await root.put('/api/user/', { id: web.userId, quota: limit === 'balance' ? quota : ample }))
        .body,
    ).toMatchObject({ success: true });
    const { tokenId, key } = await createRelayToken(web, {
      name: 'k',
      unlimited_quota: limit !== 'token',
      remain_quota: limit === 'token' ? quota : 0,
      ...(limit === 'budget' ? { period: 'day', period_quota: quota } : {}),
    });
    return { web, userId: web.userId, tokenId, key };
  }

  /** One call on a path; resolves true when the whole answer arrived, false when refused. */
  async function call(path: Path, key: string): Promise<boolean> {
    const sdk = relaySdk(t.url, key);
    const anthropic = new Anthropic({ apiKey: `sk-${key}`, baseURL: t.url, maxRetries: 0 });
    const model = path.startsWith('gemini') ? GEMINI : MODEL;
    try {
      if (path === 'openai-json' || path === 'gemini-json') {
        const answer = await sdk.chat.completions.create({ model, messages });
        return typeof answer.choices[0]?.message.content === 'string';
      }
      if (path === 'openai-sse' || path === 'gemini-sse') {
        return finished(await sdk.chat.completions.create({ model, messages, stream: true }));
      }
      // No max_tokens: the SDK's types want one, the Messages ingress does not.
      const body = { model, messages } as unknown as Anthropic.MessageCreateParamsNonStreaming;
      if (path === 'anthropic-json') {
        const answer = await anthropic.messages.create(body);
        return answer.stop_reason !== null;
      }
      const stream = await anthropic.messages.create({ ...body, stream: true });
      let stopped = false;
      for await (const event of stream) if (event.type === 'message_stop') stopped = true;
      return stopped;
    } catch (error) {
      const status = (error as { status?: number }).status;
      // Refusals only: 403 (quota), 429 (budget), 401 (a token seen used up).
      expect([401, 403, 429]).toContain(status);
      return false;
    }
  }

  async function finished(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<boolean> {
    let reason: string | null | undefined;
    for await (const chunk of stream) reason = chunk.choices[0]?.finish_reason ?? reason;
    return reason !== undefined && reason !== null;
  }

  async function receiptsOf(userId: number, count: number): Promise<Receipt[]> {
    await waitUntil(() => storedReceipts(t.dataDir, userId).length >= count, 'receipts', 10_000);
    return storedReceipts(t.dataDir, userId);
  }

  const paths: Path[] = [
    'openai-json',
    'openai-sse',
    'anthropic-json',
    'anthropic-sse',
    'gemini-json',
    'gemini-sse',
  ];
  const limits: Limit[] = ['balance', 'token', 'budget'];

  describe.each(paths)('%s, an upstream that writes until the ceiling', (path) => {
    it.each(limits)(
      'a %s for exactly N answers serves exactly N, each at its own price',
      async (limit) => {
        const prompt = promptOf(path);
        const price = priceOf(prompt);
        upstream.reset();
        upstream.setDefaults({ writes: 'ceiling', usage: { prompt_tokens: prompt } });
        const { userId, key } = await payer(limit, N * price);
        const results = await Promise.all(Array.from({ length: CALLS }, () => call(path, key)));
        expect(results.filter(Boolean)).toHaveLength(N);
        const mine = await receiptsOf(userId, N);
        expect(mine).toHaveLength(N);
        // Nothing forgiven, nothing over: each answer its own price, no overrun, no lowered ceiling.
        for (const receipt of mine) {
          expect(receipt).toMatchObject({
            quota: price,
            promptTokens: prompt,
            completionTokens: CEILING,
          });
          expect(receipt.overrun).toBeUndefined();
          expect(receipt.streamCut).toBeUndefined();
        }
        expect(mine.reduce((sum, r) => sum + r.quota, 0)).toBe(N * price);
        // Only the served calls reached the upstream, each with the ceiling its reservation priced.
        const sent = upstream.requests.filter((r) => r.method === 'POST');
        expect(sent).toHaveLength(N);
        for (const request of sent) expect(ceilingOf(request.body)).toBe(CEILING);
      },
    );
  });

  it('a ceiling lowered to what is left: relayed with it, the receipt says so', async () => {
    const prompt = promptOf('openai-json');
    // Enough for the prompt and 18 output tokens, not 20.
    const quota = priceOf(prompt, 18);
    upstream.reset();
    upstream.setDefaults({ writes: 'ceiling', usage: { prompt_tokens: prompt } });
    const { userId, key } = await payer('balance', quota);
    const answer = await relaySdk(t.url, key).chat.completions.create({ model: MODEL, messages });
    expect(answer.usage?.completion_tokens).toBe(18);
    expect(ceilingOf(upstream.requests[0]!.body)).toBe(18);
    const [receipt] = await receiptsOf(userId, 1);
    expect(receipt).toMatchObject({ quota, loweredCeiling: 18, loweredBy: 'user_quota' });
    const row = (await root.get(`/api/log/?p=1&page_size=10&type=2&username=payer${users}`)).body
      .data.items[0] as { other: string };
    expect(JSON.parse(row.other)).toMatchObject({ lowered_ceiling: 18, lowered_by: 'user_quota' });
  });

  it('an honest stream is delivered whole even when its usage passes the reservation (a prompt larger than estimated): charged in full', async () => {
    const prompt = promptOf('openai-sse');
    const price = priceOf(prompt);
    // The upstream counts 6 more prompt tokens than the relay estimated; it keeps to the ceiling.
    const cost = priceOf(prompt + 6);
    upstream.reset();
    upstream.setDefaults({ writes: 'ceiling', usage: { prompt_tokens: prompt + 6 } });
    const { userId, key } = await payer('balance', price);
    const stream = await relaySdk(t.url, key).chat.completions.create({
      model: MODEL,
      messages,
      stream: true,
    });
    let text = '';
    let reason: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      reason = chunk.choices[0]?.finish_reason ?? reason;
    }
    // 20 pieces of `tok `: the relay counts 21 (past what is reserved), the upstream 20 (its ceiling).
    expect(text).toBe('tok '.repeat(CEILING));
    expect(reason).toBe('stop');
    const [receipt] = await receiptsOf(userId, 1);
    expect(receipt).toMatchObject({ quota: cost, reserved: price, overrun: cost - price });
    expect(receipt!.streamCut).toBeUndefined();
  });

  describe('an upstream that ignores the ceiling', () => {
    const WRITES = 200;

    /** One streamed call: the text that arrived and how the stream said it stopped. */
    async function streamed(path: Path, key: string): Promise<{ text: string; stop: unknown }> {
      const model = path.startsWith('gemini') ? GEMINI : MODEL;
      let text = '';
      let stop: unknown = null;
      if (path === 'anthropic-sse') {
        const anthropic = new Anthropic({ apiKey: `sk-${key}`, baseURL: t.url, maxRetries: 0 });
        const body = {
          model,
          messages,
          stream: true,
        } as unknown as Anthropic.MessageCreateParamsStreaming;
        let stopped = false;
        for await (const event of await anthropic.messages.create(body)) {
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
            text += event.delta.text;
          if (event.type === 'message_delta') stop = event.delta.stop_reason;
          if (event.type === 'message_stop') stopped = true;
        }
        return { text, stop: stopped ? stop : 'no message_stop' };
      }
      const stream = await relaySdk(t.url, key).chat.completions.create({
        model,
        messages,
        stream: true,
      });
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        stop = chunk.choices[0]?.finish_reason ?? stop;
      }
      return { text, stop };
    }

    it.each(['openai-sse', 'anthropic-sse', 'gemini-sse'] as const)(
      '%s: streams are cut at the reservation, end cleanly and are billed for what was delivered',
      async (path) => {
        const prompt = promptOf(path);
        const price = priceOf(prompt);
        upstream.reset();
        upstream.setDefaults({ writes: WRITES, usage: { prompt_tokens: prompt } });
        const { userId, key } = await payer('balance', N * price);
        const answers = await Promise.all(Array.from({ length: N }, () => streamed(path, key)));
        for (const answer of answers) {
          // Ended as if the ceiling was reached, in the client's own protocol.
          expect(answer.stop).toBe(path === 'anthropic-sse' ? 'max_tokens' : 'length');
          // The upstream wrote 200 pieces of 4 characters; far fewer reached the client.
          expect(answer.text.length).toBeLessThan(WRITES);
          expect(answer.text.length).toBeGreaterThan(0);
        }
        const mine = await receiptsOf(userId, N);
        for (const receipt of mine) {
          expect(receipt).toMatchObject({ streamCut: true, estimated: true });
          expect(receipt.quota).toBeLessThanOrEqual(receipt.reserved);
          expect(receipt.overrun).toBeUndefined();
        }
        // The whole balance was reserved: nothing was delivered unpaid, nothing went below 0.
        const self = (await root.get(`/api/user/${userId}`)).body.data as { quota: number };
        expect(self.quota).toBeGreaterThanOrEqual(0);
      },
    );

    it.each([GEMINI, MODEL])(
      'a Gemini client without alt=sse (%s channel): the cut JSON array still parses, ending at MAX_TOKENS',
      async (model) => {
        const body = { contents: [{ role: 'user', parts: [{ text: messages[0]!.content }] }] };
        const hub = ingressCodec('gemini').toOpenAi(body, { model, stream: true }) as JsonObject;
        const prompt = estimatePromptTokens('chat', hub);
        upstream.reset();
        upstream.setDefaults({ writes: WRITES, usage: { prompt_tokens: prompt } });
        const { userId, key } = await payer('balance', priceOf(prompt));
        const res = await fetch(`${t.url}/v1beta/models/${model}:streamGenerateContent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${key}` },
          body: JSON.stringify(body),
        });
        expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
        const elements = JSON.parse(await res.text()) as JsonObject[];
        expect(elements.length).toBeLessThan(WRITES);
        expect(elements.at(-1)).toMatchObject({ candidates: [{ finishReason: 'MAX_TOKENS' }] });
        const [receipt] = await receiptsOf(userId, 1);
        expect(receipt).toMatchObject({ streamCut: true, estimated: true });
        expect(receipt!.quota).toBeLessThanOrEqual(receipt!.reserved);
      },
    );

    it.each(['openai-json', 'anthropic-json', 'gemini-json'] as const)(
      '%s: JSON answers are charged in full: the debt is recorded, refuses the next call, a top-up restores',
      async (path) => {
        const prompt = promptOf(path);
        const price = priceOf(prompt);
        const cost = priceOf(prompt, WRITES);
        upstream.reset();
        upstream.setDefaults({ writes: WRITES, usage: { prompt_tokens: prompt }, latencyMs: 200 });
        const { userId, key, web } = await payer('balance', N * price);
        const sdk = relaySdk(t.url, key);
        const results = await Promise.all(Array.from({ length: N }, () => call(path, key)));
        expect(results.every(Boolean)).toBe(true);
        const mine = await receiptsOf(userId, N);
        for (const receipt of mine) {
          expect(receipt).toMatchObject({
            quota: cost,
            reserved: price,
            overrun: cost - price,
            ceilingIgnored: true,
          });
        }
        const debt = N * price - N * cost;
        await waitUntil(
          async () => (await web.get('/api/user/self')).body.data.quota === debt,
          'the debt on the user',
        );
        // The log row names the overrun; the channel is counted in the metrics.
        const row = (await web.get('/api/log/self?p=1&page_size=1&type=2')).body.data.items[0] as {
          other: string;
        };
        expect(JSON.parse(row.other)).toMatchObject({
          overrun: cost - price,
          ceiling_ignored: true,
        });
        const metrics = await fetch(`${t.url}/metrics`).then((r) => r.text());
        expect(metrics).toMatch(/tollgate_relay_ceiling_ignored_total\{channel_id="\d+"\} [1-9]/);
        // The ledger check folds the same receipts: it agrees to the unit, the debt included.
        const ledger = (await root.get('/api/ledger/verify')).body.data as {
          ok: boolean;
          mismatches: unknown[];
        };
        expect(ledger).toMatchObject({ ok: true, mismatches: [] });
        // Refused until covered: the refusal names what is left, the debt.
        const refused = await sdk.chat.completions
          .create({ model: path.startsWith('gemini') ? GEMINI : MODEL, messages })
          .catch((error: unknown) => error as { status: number; code: string; message: string });
        expect(refused).toMatchObject({ status: 403, code: 'insufficient_user_quota' });
        expect((refused as { message: string }).message).toContain(String(debt));
        upstream.setDefaults({ writes: 'ceiling', latencyMs: 0 });
        expect((await root.put('/api/user/', { id: userId, quota: price })).body).toMatchObject({
          success: true,
        });
        await waitUntil(
          async () => (await web.get('/api/user/self')).body.data.quota === price,
          'the top-up',
        );
        await expect(call(path, key)).resolves.toBe(true);
      },
    );
  });

  it('text that spells a special token is counted as text: the prompt estimate, and a stream cut before its usage', async () => {
    const asked = [
      {
        role: 'user' as const,
        content: 'what do <|endoftext|>, <|im_start|> and <|fim_middle|> mean?',
      },
    ];
    upstream.reset();
    upstream.setDefaults({
      content: 'A text ends <|endoftext|> here, then <|im_end|>.',
      chunks: 4,
    });
    const { userId, key } = await payer('balance', 1_000_000);
    const answer = await relaySdk(t.url, key).chat.completions.create({
      model: MODEL,
      messages: asked,
    });
    expect(answer.choices[0]!.message.content).toContain('<|endoftext|>');
    const estimate = estimatePromptTokens('chat', { model: MODEL, messages: asked });
    // The special tokens' text as its ordinary pieces: more than one token each.
    expect(estimate).toBeGreaterThan(estimatePromptTokens('chat', { model: MODEL, messages }) + 6);
    const [json] = await receiptsOf(userId, 1);
    expect(json).toMatchObject({ reserved: priceOf(estimate), estimated: false });

    // Cut after three chunks: no usage arrives, the delivered text is counted.
    upstream.setDefaults({ breakAfterChunks: 3 });
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer sk-${key}` },
      body: JSON.stringify({ model: MODEL, messages: asked, stream: true }),
    });
    expect(res.status).toBe(200);
    let delivered = '';
    for (const line of (await res.text()).split('\n')) {
      if (!line.startsWith('data: {')) continue;
      const event = JSON.parse(line.slice(6)) as OpenAI.ChatCompletionChunk;
      delivered += event.choices?.[0]?.delta.content ?? '';
    }
    expect(delivered).toContain('<|endoftext|>');
    const [, cut] = await receiptsOf(userId, 2);
    expect(cut).toMatchObject({ estimated: true, completionTokens: countText(delivered) });
  });

  it("a limited token's refusal names that token's remaining quota, never its owner's balance", async () => {
    const prompt = promptOf('openai-json');
    upstream.reset();
    upstream.setDefaults({ writes: 'ceiling', usage: { prompt_tokens: prompt } });
    const { key } = await payer('token', 3);
    const refused = await relaySdk(t.url, key)
      .chat.completions.create({ model: MODEL, messages })
      .catch((error: unknown) => error as { status: number; message: string });
    expect(refused).toMatchObject({ status: 403 });
    expect((refused as { message: string }).message).toMatch(/剩余额度：3\b|remaining.*\b3\b/);
    expect((refused as { message: string }).message).not.toContain('1000000000');
  });
});
