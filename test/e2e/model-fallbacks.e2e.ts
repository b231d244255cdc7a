/**
 * Model fallbacks (ModelFallbacks) through the whole app on the mock upstream: a model whose only
 * channel fails is answered by its fallback model, billed at that model's price, the receipt and
 * the log row naming the model asked for; a token that opted out gets the error and pays nothing;
 * a context-window refusal moves on only with its switch; a stream moves on before its first byte;
 * a converting channel (Anthropic) answering as the fallback names the fallback model; a call whose
 * fallbacks fail too is refused, charged nothing, its failure naming the last model tried; a call
 * entering through `/v1/messages` falls back like a chat call.
 */
import { CONTEXT_LENGTH_EXCEEDED, MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { readStoredEvents, waitUntil } from '../support/e2e-helpers';
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

const BROKEN = 'fb-broken'; // its only channel answers 500
const LONG = 'fb-long'; // its only channel refuses the prompt as too long (400)
const TO_CLAUDE = 'fb-to-claude'; // its only channel answers 429
const ANSWER = 'fb-answer'; // an OpenAI channel that answers
const CLAUDE = 'fb-claude'; // an Anthropic channel that answers
const NO_CHANNEL = 'fb-no-channel'; // priced, but no channel serves it: skipped
const ALL_FAIL = 'fb-all-fail'; // its only channel answers 500, and so does its fallback's
const MODEL_RATIO = {
  [BROKEN]: 2,
  [LONG]: 3,
  [TO_CLAUDE]: 1,
  [ANSWER]: 0.5,
  [CLAUDE]: 0.25,
  [NO_CHANNEL]: 1,
  [ALL_FAIL]: 1,
};
const COMPLETION_RATIO = { [ANSWER]: 2, [CLAUDE]: 4 };
// Not transitive: ALL_FAIL → BROKEN stops there, though BROKEN has fallbacks of its own.
const FALLBACKS = {
  [BROKEN]: [NO_CHANNEL, ANSWER],
  [LONG]: [ANSWER],
  [TO_CLAUDE]: [CLAUDE],
  [ALL_FAIL]: [BROKEN],
};
const NEW_USER_QUOTA = 100_000_000;

describe('model fallbacks', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let users = 0;

  const option = async (key: string, value: string) => {
    const res = await root.put('/api/option/', { key, value });
    expect({ key, ...res.body }).toMatchObject({ key, success: true });
  };

  async function newCaller(token: Record<string, unknown> = {}) {
    users += 1;
    const username = `fallback${users}`;
    const web = await registerAndLogin(t.url, username);
    const { key } = await createRelayToken(web, { name: 'k', unlimited_quota: true, ...token });
    return { web, key, username };
  }

  async function chat(key: string, model: string, stream = false) {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hello' }] }),
    });
    return { status: res.status, text: await res.text() };
  }

  async function receiptOf(userId: number): Promise<Receipt> {
    const mine = () => storedReceipts(t.dataDir, userId);
    await waitUntil(() => mine().length > 0, 'a receipt', 10_000);
    return mine()[0]!;
  }

  /** The ratio-mode charge of a receipt's tokens at `model`'s ratios (group ratio 1). */
  const priceAt = (model: keyof typeof MODEL_RATIO, r: Receipt) =>
    Math.round(
      (r.promptTokens +
        r.completionTokens * ((COMPLETION_RATIO as Record<string, number>)[model] ?? 1)) *
        MODEL_RATIO[model],
    );

  const balance = async (web: ConsoleClient) =>
    (await web.get('/api/user/self')).body.data.quota as number;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    const routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    await option('ModelRatio', JSON.stringify(MODEL_RATIO));
    await option('CompletionRatio', JSON.stringify(COMPLETION_RATIO));
    await option('QuotaForNewUser', String(NEW_USER_QUOTA));
    await option('ModelFallbacks', JSON.stringify(FALLBACKS));
    const channel = (type: number, key: string, models: string) =>
      addRelayChannel(root, routing, {
        type,
        name: key,
        key,
        models,
        base_url: upstream.url,
        group: 'default',
      });
    await channel(1, 'sk-fb-broken', BROKEN);
    await channel(1, 'sk-fb-long', LONG);
    await channel(1, 'sk-fb-to-claude', TO_CLAUDE);
    await channel(1, 'sk-fb-answer', ANSWER);
    await channel(14, 'sk-fb-claude', CLAUDE);
    await channel(1, 'sk-fb-all-fail', ALL_FAIL);
    upstream.forKey('sk-fb-broken', { fail: 'server_error' });
    upstream.forKey('sk-fb-long', CONTEXT_LENGTH_EXCEEDED);
    upstream.forKey('sk-fb-to-claude', { fail: 'rate_limit' });
    upstream.forKey('sk-fb-all-fail', { fail: 'server_error' });
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('refuses a model listing itself, and changes nothing', async () => {
    const res = await root.put('/api/option/', {
      key: 'ModelFallbacks',
      value: JSON.stringify({ [BROKEN]: [BROKEN] }),
    });
    expect(res.body.success).toBe(false);
    const all = (await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
    expect(JSON.parse(all.find((o) => o.key === 'ModelFallbacks')!.value)).toEqual(FALLBACKS);
  });

  it('answers a failed model with its fallback, billed at the fallback price, and says so', async () => {
    const { web, key, username } = await newCaller();
    const answer = await chat(key, BROKEN);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).model).toBe(ANSWER);

    const receipt = await receiptOf(web.userId);
    expect(receipt).toMatchObject({
      model: ANSWER,
      requestedModel: BROKEN,
      fallbackReason: 'failed',
    });
    expect(receipt.quota).toBe(priceAt(ANSWER, receipt));
    await waitUntil(
      async () => (await balance(web)) === NEW_USER_QUOTA - receipt.quota,
      'the balance charged at the fallback price',
      10_000,
    );

    const rows = async () =>
      (await root.get(`/api/log/?type=2&username=${username}`)).body.data.items as Array<{
        model_name: string;
        other: string;
      }>;
    await waitUntil(async () => (await rows()).length > 0, 'the log row', 10_000);
    const [row] = await rows();
    expect(row!.model_name).toBe(ANSWER);
    expect(JSON.parse(row!.other)).toMatchObject({
      requested_model: BROKEN,
      fallback_reason: 'failed',
    });

    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/tollgate_model_fallbacks_total\{reason="failed"\} [1-9]/);
  });

  it('gives a token that opted out the error and charges nothing', async () => {
    const { web, key } = await newCaller({ model_fallback: false });
    const tokens = (await web.get('/api/token/?p=0&size=10')).body.data as Array<{
      model_fallback: boolean;
    }>;
    expect(tokens[0]!.model_fallback).toBe(false);
    const answerCalls = () => upstream.requests.filter((r) => r.key === 'sk-fb-answer').length;
    const before = answerCalls();
    const answer = await chat(key, BROKEN);
    expect(answer.status).toBe(500);
    expect(answerCalls()).toBe(before);
    // A call of its own afterwards: once its receipt is in, the failed one has none.
    expect((await chat(key, ANSWER)).status).toBe(200);
    const receipt = await receiptOf(web.userId);
    expect(receipt.model).toBe(ANSWER);
    expect(receipt).not.toHaveProperty('requestedModel');
    expect(storedReceipts(t.dataDir, web.userId)).toHaveLength(1);
    await waitUntil(
      async () => (await balance(web)) === NEW_USER_QUOTA - receipt.quota,
      'the balance charged for the second call only',
      10_000,
    );
  });

  it('moves on after a context-window refusal only with its switch on', async () => {
    const { web, key } = await newCaller();
    const refused = await chat(key, LONG);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('context_length_exceeded');

    await option('ModelFallbackOnContextWindow', 'true');
    const answer = await chat(key, LONG);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).model).toBe(ANSWER);
    expect(await receiptOf(web.userId)).toMatchObject({
      model: ANSWER,
      requestedModel: LONG,
      fallbackReason: 'context_window',
    });
  });

  it('moves a stream on before its first byte', async () => {
    const { web, key } = await newCaller();
    const answer = await chat(key, BROKEN, true);
    expect(answer.status).toBe(200);
    const chunks = answer.text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { model: string });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((chunk) => chunk.model === ANSWER)).toBe(true);
    expect(answer.text).toContain('data: [DONE]');
    const receipt = await receiptOf(web.userId);
    expect(receipt).toMatchObject({ model: ANSWER, requestedModel: BROKEN, stream: true });
    expect(receipt.quota).toBe(priceAt(ANSWER, receipt));
  });

  it('names the fallback model when a converting (Anthropic) channel answers', async () => {
    const { web, key } = await newCaller();
    const answer = await chat(key, TO_CLAUDE);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).model).toBe(CLAUDE);
    const receipt = await receiptOf(web.userId);
    expect(receipt).toMatchObject({ model: CLAUDE, requestedModel: TO_CLAUDE });
    expect(receipt.quota).toBe(priceAt(CLAUDE, receipt));
  });

  it('refuses a call whose fallbacks fail too, charges nothing, and names the last model tried', async () => {
    const { web, key } = await newCaller();
    const answerCalls = () => upstream.requests.filter((r) => r.key === 'sk-fb-answer').length;
    const before = answerCalls();
    const refused = await chat(key, ALL_FAIL);
    expect(refused.status).toBe(500);
    // BROKEN's own fallbacks are not followed.
    expect(answerCalls()).toBe(before);
    const failures = () =>
      readStoredEvents(t.dataDir, { type: 'RequestFailed' })
        .map((event) => event.data as { userId: number; model: string })
        .filter((failure) => failure.userId === web.userId);
    await waitUntil(() => failures().length > 0, 'the failure event', 10_000);
    expect(failures().map((failure) => failure.model)).toEqual([BROKEN]);
    expect(storedReceipts(t.dataDir, web.userId)).toEqual([]);
    expect(await balance(web)).toBe(NEW_USER_QUOTA);
  });

  it('falls back for a call entering through /v1/messages', async () => {
    const { web, key } = await newCaller();
    const res = await fetch(`${t.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': `sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: BROKEN,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'hello' }],
      }),
    });
    const body = (await res.json()) as { type: string; model: string };
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ type: 'message', model: ANSWER });
    const receipt = await receiptOf(web.userId);
    expect(receipt).toMatchObject({
      model: ANSWER,
      requestedModel: BROKEN,
      endpoint: '/v1/messages',
    });
    expect(receipt.quota).toBe(priceAt(ANSWER, receipt));
  });
});
