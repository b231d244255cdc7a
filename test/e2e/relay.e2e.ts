/**
 * The relay end to end: the whole gateway (embedded storage), channels and tokens created through
 * the console API, the mock upstream, and the official openai SDK as the client.
 */
import { toFile } from 'openai';
import request from 'supertest';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { BalanceBook } from '../../apps/gateway/src/billing/balance-book';
import { RelayFastLane } from '../../apps/gateway/src/relay/relay-fast-lane';
import { waitUntil } from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  type Receipt,
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

jest.setTimeout(120_000);

const RATIOS = {
  'gpt-4o-mini': 0.075,
  'gpt-4o': 1.25,
  'gpt-3.5-turbo-instruct': 0.75,
  'text-embedding-3-small': 0.01,
  'omni-moderation-latest': 0.1,
  'whisper-1': 15,
  'tts-1': 7.5,
};
const COMPLETION = { 'gpt-4o-mini': 4, 'gpt-4o': 4 };
const NEW_USER_QUOTA = 1_000_000;

describe('relay (whole app, openai SDK, mock upstream)', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let routing: RoutingTable;
  let book: BalanceBook;
  let users = 0;

  const optionValues = new Map<string, string>();
  /** Sets an option (unchanged ones are skipped: they would record nothing anyway). */
  const option = async (key: string, value: string) => {
    if (optionValues.get(key) === value) return;
    const res = await root.put('/api/option/', { key, value });
    expect(res.body).toMatchObject({ success: true });
    optionValues.set(key, value);
  };

  const addChannel = (body: Record<string, unknown>): Promise<number> =>
    addRelayChannel(root, routing, {
      type: 1,
      name: 'mock',
      key: 'sk-upstream-main',
      base_url: upstream.url,
      models: Object.keys(RATIOS).concat('dall-e-3').join(','),
      group: 'default',
      ...body,
    });

  /** A new user (QuotaForNewUser) with one token; its SDK client and console client. */
  async function newCaller(tokenBody: Record<string, unknown> = {}) {
    users += 1;
    const web = await registerAndLogin(t.url, `relay${users}`);
    const { tokenId, key } = await createRelayToken(web, {
      name: 'relay',
      remain_quota: 800_000,
      ...tokenBody,
    });
    return { web, userId: web.userId, tokenId, key, sdk: relaySdk(t.url, key) };
  }

  const receiptsOf = (userId: number): Receipt[] => storedReceipts(t.dataDir, userId);

  async function waitReceipts(userId: number, count: number): Promise<Receipt[]> {
    await waitUntil(() => receiptsOf(userId).length >= count, `${count} receipts`, 10_000);
    return receiptsOf(userId);
  }

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    routing = t.app.get(RoutingTable);
    book = t.app.get(BalanceBook);
    root = await loginRoot(t.url);
    await option('ModelRatio', JSON.stringify(RATIOS));
    await option('CompletionRatio', JSON.stringify(COMPLETION));
    await option('ModelPrice', JSON.stringify({ 'dall-e-3': 0.04 }));
    await option('QuotaForNewUser', String(NEW_USER_QUOTA));
    await addChannel({ name: 'main' });
  });

  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  beforeEach(() => upstream.reset());

  it('every endpoint through the SDK: charges = the formula, balances, token counters and receipts match', async () => {
    const { web, userId, tokenId, sdk } = await newCaller();
    upstream.setDefaults({ usage: { prompt_tokens: 120, completion_tokens: 30 }, chunks: 4 });
    // Which calls the fast lane served (node:http alone) and which went through Fastify.
    const lane = jest.spyOn(RelayFastLane.prototype, 'serve');

    const chat = await sdk.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(chat.choices[0]!.message.content).toBeTruthy();

    const stream = await sdk.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe('tok tok tok tok ');

    await sdk.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' });
    await sdk.embeddings.create({ model: 'text-embedding-3-small', input: 'hello' });
    const images = await sdk.images.generate({ model: 'dall-e-3', prompt: 'a cat', n: 2 });
    expect(images.data).toHaveLength(2);
    const speech = await sdk.audio.speech.create({
      model: 'tts-1',
      input: 'Hello world',
      voice: 'alloy',
    });
    expect((await speech.arrayBuffer()).byteLength).toBe(1024);
    const text = await sdk.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(Buffer.from('RIFF0000WAVEfmt '), 'hello.wav', { type: 'audio/wav' }),
    });
    expect(typeof text.text).toBe('string');
    const moderation = await sdk.moderations.create({
      model: 'omni-moderation-latest',
      input: 'kill',
    });
    expect(moderation.results[0]!.flagged).toBe(true);
    const models = await sdk.models.list();
    expect(models.data.map((m) => m.id)).toEqual(
      expect.arrayContaining(['gpt-4o-mini', 'dall-e-3']),
    );
    // The SDK's seven JSON calls took the lane; the multipart upload and the GET did not.
    const served = lane.mock.results.map((r) => r.value as boolean);
    lane.mockRestore();
    expect(served.filter(Boolean)).toHaveLength(7);
    expect(served.filter((v) => !v)).toHaveLength(2);

    const receipts = await waitReceipts(userId, 8);
    const by = (endpoint: string) => receipts.find((r) => r.endpoint === endpoint)!;
    // ratio mode: round((prompt + completion × completionRatio) × modelRatio × groupRatio)
    expect(by('/v1/chat/completions').quota).toBeGreaterThan(0);
    const chatReceipts = receipts.filter((r) => r.endpoint === '/v1/chat/completions');
    expect(chatReceipts.map((r) => r.quota).sort((a, b) => a - b)).toEqual(
      [Math.round((120 + 30 * 4) * 0.075), Math.round((120 + 30 * 4) * 1.25)].sort((a, b) => a - b),
    );
    expect(chatReceipts.find((r) => r.stream)).toMatchObject({
      model: 'gpt-4o',
      promptTokens: 120,
      completionTokens: 30,
      estimated: false,
    });
    expect(by('/v1/completions').quota).toBe(Math.round((120 + 30) * 0.75));
    // embeddings report prompt tokens only
    expect(by('/v1/embeddings')).toMatchObject({ promptTokens: 120, completionTokens: 0 });
    expect(by('/v1/embeddings').quota).toBe(Math.max(1, Math.round(120 * 0.01)));
    // price mode: modelPrice × 500000 × groupRatio per image
    expect(by('/v1/images/generations')).toMatchObject({ quota: 2 * 20_000, modelPrice: 0.04 });
    for (const r of receipts) {
      expect(r).toMatchObject({
        userId,
        tokenId,
        group: 'default',
        groupRatio: 1,
        channelChain: [r.channelId],
      });
    }
    const total = receipts.reduce((s, r) => s + r.quota, 0);

    // The hot balance book and the read models agree with Σ receipts.
    expect(book.userBalance(userId)).toBe(NEW_USER_QUOTA - total);
    await waitUntil(
      async () => (await web.get('/api/user/self')).body.data.quota === NEW_USER_QUOTA - total,
      'user read model',
    );
    const self = (await web.get('/api/user/self')).body.data;
    expect(self).toMatchObject({ used_quota: total, request_count: 8 });
    await waitUntil(async () => {
      const tokens = (await web.get('/api/token/?p=0&size=10')).body.data as Array<{
        id: number;
        used_quota: number;
        remain_quota: number;
      }>;
      const token = tokens.find((tk) => tk.id === tokenId)!;
      return token.used_quota === total && token.remain_quota === 800_000 - total;
    }, 'token read model');

    // The log: one consumption row (type 2) per receipt, `other` is the receipt's ratios.
    type LogRow = {
      type: number;
      model_name: string;
      quota: number;
      prompt_tokens: number;
      completion_tokens: number;
      is_stream: boolean;
      token_name: string;
      other: string;
    };
    const logRows = async () =>
      ((await web.get('/api/log/self?type=2&p=1&page_size=50')).body.data?.items ?? []) as LogRow[];
    await waitUntil(async () => (await logRows()).length === 8, 'consumption log rows');
    const rows = await logRows();
    expect(rows.reduce((s, r) => s + r.quota, 0)).toBe(total);
    const chatRow = rows.find((r) => r.model_name === 'gpt-4o-mini')!;
    expect(chatRow).toMatchObject({
      type: 2,
      quota: Math.round((120 + 30 * 4) * 0.075),
      prompt_tokens: 120,
      completion_tokens: 30,
      is_stream: false,
      token_name: 'relay',
    });
    expect(JSON.parse(chatRow.other)).toMatchObject({
      model_ratio: 0.075,
      completion_ratio: 4,
      group_ratio: 1,
      model_price: -1,
    });
    const imageRow = rows.find((r) => r.model_name === 'dall-e-3')!;
    expect(JSON.parse(imageRow.other)).toMatchObject({ model_price: 0.04, group_ratio: 1 });
    const streamRow = rows.find((r) => r.model_name === 'gpt-4o')!;
    expect(streamRow.is_stream).toBe(true);
    expect(JSON.parse(streamRow.other).frt).toEqual(expect.any(Number));

    // quota_data: hourly totals per user × model for the dashboard.
    type DataRow = {
      model_name: string;
      count: number;
      quota: number;
      token_used: number;
      username?: string;
    };
    await waitUntil(
      async () =>
        ((await web.get('/api/data/self')).body.data as DataRow[]).reduce(
          (n, r) => n + r.count,
          0,
        ) === 8,
      'quota_data rows',
    );
    const data = (await web.get('/api/data/self')).body.data as DataRow[];
    expect(data.reduce((n, r) => n + r.quota, 0)).toBe(total);
    expect(data.find((r) => r.model_name === 'gpt-4o-mini')).toMatchObject({
      count: 1,
      token_used: 150,
    });
    const everyone = (await root.get(`/api/data/?username=relay${users}`)).body.data as DataRow[];
    expect(everyone.reduce((n, r) => n + r.quota, 0)).toBe(total);
    const aggregated = (await root.get('/api/data/')).body.data as DataRow[];
    expect(aggregated.every((r) => r.username === undefined)).toBe(true);
    expect(
      (await web.get('/api/data/self?start_timestamp=0&end_timestamp=99999999')).body,
    ).toMatchObject({
      success: false,
      message: '时间跨度不能超过 1 个月',
    });

    // The upstream saw the mapped request with include_usage on the stream.
    const streamCall = upstream
      .requestsTo('/chat/completions')
      .find((r) => (r.body as { stream?: boolean }).stream);
    expect(streamCall!.body).toMatchObject({ stream_options: { include_usage: true } });
    expect(streamCall!.key).toBe('sk-upstream-main');
  });

  it('retries skip tried channels; a 401 channel is disabled with its reason and leaves the routing table', async () => {
    await option('RetryTimes', '3');
    await option('AutomaticDisableChannelEnabled', 'true');
    try {
      const failing = await addChannel({
        name: 'dead-key',
        key: 'sk-dead',
        priority: 20, // each retry moves one priority tier down (one-api's and new-api's order): 20 → 10 → 0
        models: 'gpt-4o-mini',
      });
      const busy = await addChannel({
        name: 'busy',
        key: 'sk-busy',
        priority: 10,
        models: 'gpt-4o-mini',
      });
      upstream
        .forKey('sk-dead', { fail: 'invalid_key' })
        .forKey('sk-busy', { fail: 'server_error' });
      const { userId, sdk } = await newCaller();
      const answer = await sdk.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(answer.choices).toHaveLength(1);
      const keys = upstream.requestsTo('/chat/completions').map((r) => r.key);
      expect(new Set(keys).size).toBe(keys.length); // no channel tried twice
      expect(keys).toEqual(['sk-dead', 'sk-busy', 'sk-upstream-main']);
      const [receipt] = await waitReceipts(userId, 1);
      expect(receipt!.channelChain).toEqual([failing, busy, receipt!.channelId]);

      await waitUntil(() => routing.channel(failing)?.status === 3, 'channel auto-disabled');
      expect(routing.candidates('default', 'gpt-4o-mini').map((c) => c.id)).not.toContain(failing);
      // The read model follows the log a moment after the routing table (projections are paced).
      let channel = { status: 0, other_info: '' };
      await waitUntil(async () => {
        channel = (await root.get(`/api/channel/${failing}`)).body.data as typeof channel;
        return channel.status === 3;
      }, 'channel shown disabled');
      expect(channel.other_info).toContain('invalid_api_key');
      // the 500 channel is not disabled by one failure
      expect(routing.channel(busy)?.status).toBe(1);
      await root.delete(`/api/channel/${busy}`);

      // Auto-enable: the key works again and a scheduled/manual test passes → back in the table.
      await option('AutomaticEnableChannelEnabled', 'true');
      upstream.reset();
      const tested = await root.get(`/api/channel/test/${failing}`);
      expect(tested.body.success).toBe(true);
      await waitUntil(() => routing.channel(failing)?.status === 1, 'channel auto-enabled');
      expect(routing.candidates('default', 'gpt-4o-mini').map((c) => c.id)).toContain(failing);
      await root.delete(`/api/channel/${failing}`);
    } finally {
      await option('RetryTimes', '0');
      await option('AutomaticDisableChannelEnabled', 'false');
      await option('AutomaticEnableChannelEnabled', 'false');
    }
  });

  it('the playground bills the signed-in user (no token) and streams', async () => {
    const { web, userId } = await newCaller();
    upstream.setDefaults({ chunks: 2, usage: { prompt_tokens: 10, completion_tokens: 2 } });
    const res = await web
      .post('/pg/chat/completions', {
        model: 'gpt-4o-mini',
        group: 'default',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.body as string).toContain('data: [DONE]');
    const [receipt] = await waitReceipts(userId, 1);
    expect(receipt).toMatchObject({ tokenId: 0, endpoint: '/pg/chat/completions', stream: true });
    expect(upstream.requestsTo('/chat/completions')[0]!.body).not.toHaveProperty('group');
    // without a session: 401 in the OpenAI shape
    const anonymous = await request(t.url)
      .post('/pg/chat/completions')
      .send({ model: 'gpt-4o-mini', messages: [] });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.message).toMatch(/request id/);
  });

  it('OpenAI-shaped errors, dashboard billing and 501s', async () => {
    const { key } = await newCaller();
    const bad = await request(t.url)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer sk-nope')
      .send({ model: 'gpt-4o-mini', messages: [] });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatchObject({
      type: 'authentication_error',
      code: 'token_invalid',
      param: '',
    });
    // SDKs send no Accept-Language: English; a client naming Chinese reads new-api's wording.
    expect(bad.body.error.message).toMatch(/^Invalid API key \(request id: [0-9a-f]{32}\)$/);
    const zh = await request(t.url)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer sk-nope')
      .set('accept-language', 'fr, zh-CN;q=0.8')
      .send({ model: 'gpt-4o-mini', messages: [] });
    expect(zh.status).toBe(401);
    expect(zh.body.error.message).toMatch(/^无效的令牌 \(request id: [0-9a-f]{32}\)$/);
    for (const path of ['/dashboard/billing/subscription', '/v1/dashboard/billing/subscription']) {
      const sub = await request(t.url).get(path).set('authorization', `Bearer sk-${key}`);
      expect(sub.body).toMatchObject({
        object: 'billing_subscription',
        hard_limit_usd: 800_000 / 500_000,
      });
    }
    const usage = await request(t.url)
      .get('/v1/dashboard/billing/usage')
      .set('authorization', `Bearer ${key}`);
    expect(usage.body).toEqual({ object: 'list', total_usage: 0 });
    const notImplemented = await request(t.url)
      .post('/v1/images/variations')
      .set('authorization', `Bearer sk-${key}`);
    expect(notImplemented.status).toBe(501);
    expect(notImplemented.body.error.code).toBe('api_not_implemented');
    const unknownModel = await request(t.url)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer sk-${key}`)
      .send({ model: 'nobody-serves-this', messages: [] });
    expect(unknownModel.status).toBe(403); // no price configured
    // a long id in the path is still the relay's to answer, in its shape (not the router's 414)
    const longModel = await request(t.url)
      .get(`/v1/models/${'m'.repeat(150)}`)
      .set('authorization', `Bearer sk-${key}`);
    expect(longModel.status).toBe(404);
    expect(longModel.body.error.code).toBe('model_not_found');
    const longEngine = await request(t.url)
      .post(`/v1/engines/${'m'.repeat(150)}/embeddings`)
      .set('authorization', `Bearer sk-${key}`)
      .send({ input: 'x' });
    expect(longEngine.status).toBe(403); // no price configured, as for any unknown model
    const longFile = await request(t.url)
      .get(`/v1/files/${'f'.repeat(150)}`)
      .set('authorization', `Bearer sk-${key}`);
    expect(longFile.status).toBe(501);
    // large bodies are legitimate on /v1 (above Fastify's 1 MB default)
    const big = await request(t.url)
      .post('/v1/embeddings')
      .set('authorization', `Bearer sk-${key}`)
      .send({ model: 'text-embedding-3-small', input: 'word '.repeat(600_000) });
    expect(big.status).toBe(200);
  });
});

describe('relay: no overdraft across a restart', () => {
  it('10 calls, restart on the same data, 200 concurrent: 20 served in all, balance 0, charges = Σ receipts', async () => {
    const upstream = await MockUpstream.start({
      defaults: { usage: { prompt_tokens: 100, completion_tokens: 0 }, latencyMs: 20 },
    });
    let t = await startTestApp();
    const dataDir = t.dataDir;
    try {
      const root = await loginRoot(t.url);
      for (const [key, value] of [
        ['ModelRatio', JSON.stringify({ 'gpt-4o': 1.25 })],
        ['PreConsumedQuota', '100'],
        ['QuotaForNewUser', String(20 * 125)],
      ]) {
        expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
      }
      const channel = await root.post('/api/channel/', {
        type: 1,
        name: 'mock',
        key: 'sk-up',
        base_url: upstream.url,
        models: 'gpt-4o',
        group: 'default',
      });
      expect(channel.body.success).toBe(true);
      const web = await registerAndLogin(t.url, 'restarter');
      const { key } = await createRelayToken(web, { name: 'k', unlimited_quota: true });
      expect(t.app.get(BalanceBook).userBalance(web.userId)).toBe(20 * 125);
      const call = (url: string) =>
        relaySdk(url, key).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        });
      const first = await Promise.allSettled(Array.from({ length: 10 }, () => call(t.url)));
      expect(first.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      await waitUntil(() => storedReceipts(dataDir).length === 10, 'first receipts durable');
      await t.close();

      t = await startTestApp({ dataDir });
      const book = t.app.get(BalanceBook);
      expect(book.userBalance(web.userId)).toBe(10 * 125); // rebuilt from the events
      const second = await Promise.allSettled(Array.from({ length: 200 }, () => call(t.url)));
      expect(second.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      await waitUntil(() => storedReceipts(dataDir).length === 20, 'all receipts durable');
      const receipts = storedReceipts(dataDir);
      expect(new Set(receipts.map((r) => r.requestId)).size).toBe(20);
      expect(receipts.reduce((s, r) => s + r.quota, 0)).toBe(20 * 125);
      expect(book.userBalance(web.userId)).toBe(0);
      const self = await new ConsoleClient(t.url).login('restarter', 'password123');
      await waitUntil(
        async () => (await self.get('/api/user/self')).body.data.quota === 0,
        'read model at 0',
      );
    } finally {
      await t.close();
      await upstream.close();
    }
  });
});
