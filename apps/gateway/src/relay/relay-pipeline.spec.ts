/**
 * The relay pipeline over real HTTP, with the real balance book, token directory, usage appender
 * (SQLite event store in memory, fed back through the cache feed), the mock upstream and the
 * official openai SDK as the client. The routing table here is a small in-memory one with the
 * contract's semantics; the whole-app e2e (test/e2e/relay.e2e.ts) uses the channels module's.
 */
import { PendingWrites } from '../infrastructure/pending-writes';
import { RequestTracker } from '../observability/request-tracker';
import Fastify, { type FastifyInstance } from 'fastify';
import OpenAI, { toFile } from 'openai';
import { request } from 'undici';
import type { RecordedEvent } from '@tollgate/event-store';
import { SqliteEventStore } from '@tollgate/event-store';
import type { RequestRelayed } from '@tollgate/domain';
import { DEFAULT_MOCK_MODELS, MockUpstream } from '@tollgate/testing/mock-upstream';
import { estimatePromptTokens } from '@tollgate/relay';
import { BalanceBook } from '../billing/balance-book';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { sha256Hex } from '../infrastructure/secret-box';
import { OptionsCache } from '../options/options.cache';
import { TokenDirectory } from '../tokens/token-directory';
import { UsageAppender } from '../usage/usage-appender';
import type { ReadStore } from '@tollgate/read-store';
import type { SecretBox } from '../infrastructure/secret-box';
import { RelayAdmission } from './relay-admission';
import { RelayGate } from './relay-gate';
import type { RelayCommandsPort, RoutedChannel, RoutingTablePort } from './relay-ports';
import { RelaySettingsView } from './relay-settings';
import { RelayRouteExtensions } from './relay-route-extensions';
import { RelayRoutes } from './relay.routes';
import { RelayService } from './relay.service';
import { UpstreamPools } from './upstream-pools';

class TestRoutingTable implements RoutingTablePort {
  channels: RoutedChannel[] = [];
  candidates(group: string, model: string): readonly RoutedChannel[] {
    return this.channels
      .filter((c) => c.status === 1 && c.groups.includes(group) && c.models.includes(model))
      .sort((a, b) => b.priority - a.priority);
  }
  channel(id: number): RoutedChannel | undefined {
    return this.channels.find((c) => c.id === id);
  }
  models(group: string): readonly string[] {
    const set = new Set<string>();
    for (const c of this.channels)
      if (c.status === 1 && c.groups.includes(group)) c.models.forEach((m) => set.add(m));
    return [...set].sort();
  }
}

class RecordingCommands implements RelayCommandsPort {
  readonly calls: string[] = [];
  constructor(private readonly routing: TestRoutingTable) {}
  async markTokenExpired(tokenId: number) {
    this.calls.push(`expired:${tokenId}`);
  }
  async markTokenExhausted(tokenId: number) {
    this.calls.push(`exhausted:${tokenId}`);
  }
  async disableChannel(channelId: number, reason: string) {
    this.calls.push(`disable:${channelId}:${reason}`);
    this.routing.channels = this.routing.channels.map((c) =>
      c.id === channelId ? { ...c, status: 3 } : c,
    );
  }
}

const channel = (
  over: Partial<RoutedChannel> & { id: number; baseUrl: string },
): RoutedChannel => ({
  type: 1,
  name: `ch-${over.id}`,
  status: 1,
  key: `sk-up-${over.id}`,
  models: [...DEFAULT_MOCK_MODELS, 'gpt-3.5-turbo-instruct'],
  groups: ['default'],
  priority: 0,
  weight: 0,
  modelMapping: {},
  statusCodeMapping: {},
  other: '',
  autoBan: true,
  openaiOrganization: '',
  testModel: '',
  setting: {},
  paramOverride: {},
  ...over,
});

const KEY = 'k'.repeat(48);
const QUOTA = 1_000_000;
const TOKEN_CAP = 800_000;

describe('relay pipeline', () => {
  let store: SqliteEventStore;
  let feed: CacheFeed;
  let book: BalanceBook;
  let directory: TokenDirectory;
  let options: OptionsCache;
  let routing: TestRoutingTable;
  let commands: RecordingCommands;
  let service: RelayService;
  let pools: UpstreamPools;
  let upstream: MockUpstream;
  let app: FastifyInstance;
  let url: string;
  let client: OpenAI;
  let nextId = 1;

  const append = async (stream: string, type: string, data: object) => {
    const { position } = await store.append(
      stream,
      [{ id: crypto.randomUUID(), type, data }],
      'any',
    );
    await feed.waitFor(position, 2000);
  };
  const setOption = (key: string, value: string) =>
    options.apply([
      { type: 'OptionChanged', data: { key, value, previous: '' } } as unknown as RecordedEvent,
    ]);

  async function newUser(quota: number, tokenCap: number, tokenOver: object = {}) {
    const userId = nextId++;
    const tokenId = nextId++;
    const key = `${String(tokenId).padStart(2, '0')}${KEY}`.slice(0, 48);
    await append(`user-${userId}`, 'UserRegistered', {
      userId,
      username: `u${userId}`,
      displayName: '',
      passwordHash: '',
      role: 1,
      group: 'default',
      email: '',
      inviterId: 0,
      affCode: '',
      source: 'password',
    });
    await append(`billing-${userId}`, 'QuotaGranted', { userId, amount: quota, reason: 'admin' });
    await append(`token-${tokenId}`, 'TokenCreated', {
      tokenId,
      userId,
      keyHash: sha256Hex(key),
      sealedKey: { iv: '', tag: '', data: '' },
      createdTime: 0,
      name: `t${tokenId}`,
      expiredTime: -1,
      remainQuota: tokenCap,
      unlimitedQuota: false,
      modelLimitsEnabled: false,
      modelLimits: [],
      allowIps: [],
      group: '',
      rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
      ...tokenOver,
    });
    const sdk = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${url}/v1`, maxRetries: 0 });
    return { userId, tokenId, key, sdk };
  }

  async function receipts(): Promise<RequestRelayed['data'][]> {
    const events = await store.readAll({
      filter: { eventTypes: ['RequestRelayed'] },
      maxCount: 100_000,
    });
    return events.map((e) => e.data as RequestRelayed['data']);
  }

  /** A user's receipts once `count` of them are durable and fed back to the book. */
  async function receiptsOf(userId: number, count: number): Promise<RequestRelayed['data'][]> {
    for (let i = 0; i < 200; i++) {
      const mine = (await receipts()).filter((r) => r.userId === userId);
      if (mine.length >= count) {
        const head = await store.headPosition();
        if (head) await feed.waitFor(head, 2000);
        return mine;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`expected ${count} receipts for user ${userId}`);
  }

  async function receiptOf(userId: number): Promise<RequestRelayed['data']> {
    return (await receiptsOf(userId, 1))[0]!;
  }

  beforeAll(async () => {
    store = SqliteEventStore.open(':memory:');
    feed = new CacheFeed(store);
    book = new BalanceBook();
    directory = new TokenDirectory();
    feed.register(book);
    feed.register(directory);
    await feed.start();
    options = new OptionsCache({} as ReadStore, {} as SecretBox);
    setOption(
      'ModelRatio',
      JSON.stringify({
        'gpt-4o-mini': 0.075,
        'gpt-4o': 1.25,
        'text-embedding-3-small': 0.01,
        'omni-moderation-latest': 0.1,
        'whisper-1': 15,
        'tts-1': 7.5,
        'gpt-3.5-turbo-instruct': 0.75,
      }),
    );
    setOption('CompletionRatio', JSON.stringify({ 'gpt-4o-mini': 4, 'gpt-4o': 4 }));
    setOption('ModelPrice', JSON.stringify({ 'dall-e-3': 0.04 }));
    routing = new TestRoutingTable();
    commands = new RecordingCommands(routing);
    pools = new UpstreamPools();
    const settings = new RelaySettingsView(() => options);
    const tracker = new RequestTracker();
    service = new RelayService(
      settings,
      pools,
      book,
      routing,
      new UsageAppender(store),
      commands,
      tracker,
      undefined,
      // Bursts queue their calls behind open reservations: a wait long enough that a starved test
      // worker still serves every call the balance covers (the default, 5 s, is a latency choice).
      { relayReserveWaitMs: 25_000, billingDurability: 'batched' },
    );
    const admission = new RelayAdmission(directory, book, commands);
    const routes = new RelayRoutes(
      service,
      admission,
      new RelayGate(tracker),
      settings,
      () => {
        throw new Error('no playground in this harness');
      },
      routing,
      book,
      // The task relays are tested end to end (test/e2e/task-relay.e2e.ts); none registered here.
      new RelayRouteExtensions(),
      tracker,
      new PendingWrites(),
    );
    upstream = await MockUpstream.start();
    app = Fastify();
    routes.register(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    ({ sdk: client } = await newUser(QUOTA, TOKEN_CAP));
  });

  afterAll(async () => {
    await app.close();
    await pools.onApplicationShutdown();
    await upstream.close();
    await feed.onApplicationShutdown();
    await store.close();
  });

  beforeEach(() => {
    upstream.reset();
    routing.channels = [channel({ id: 1, baseUrl: upstream.url })];
    setOption('RetryTimes', '0');
    setOption('AutomaticDisableChannelEnabled', 'false');
  });

  it('chat JSON: relays untouched, charges the formula once, receipt matches', async () => {
    const { userId, tokenId, sdk } = await newUser(QUOTA, TOKEN_CAP);
    upstream.setDefaults({
      usage: { prompt_tokens: 1000, completion_tokens: 500 },
      content: 'Hi!',
    });
    const answer = await sdk.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(answer.choices[0]!.message.content).toBe('Hi!');
    const charge = Math.round((1000 + 500 * 4) * 0.075); // 225
    expect(book.userBalance(userId)).toBe(QUOTA - charge);
    expect(book.tokenRemaining(tokenId)).toBe(TOKEN_CAP - charge);
    const receipt = await receiptOf(userId);
    expect(receipt).toMatchObject({
      userId,
      tokenId,
      model: 'gpt-4o-mini',
      upstreamModel: 'gpt-4o-mini',
      channelId: 1,
      channelChain: [1],
      endpoint: '/v1/chat/completions',
      promptTokens: 1000,
      completionTokens: 500,
      quota: charge,
      modelRatio: 0.075,
      completionRatio: 4,
      groupRatio: 1,
      modelPrice: -1,
      stream: false,
      estimated: false,
      firstTokenMs: null,
    });
    // The receipt came back through the feed: not counted twice.
    expect(book.userBalance(userId)).toBe(QUOTA - charge);
    expect(upstream.requestsTo('/chat/completions')[0]!.key).toBe('sk-up-1');
  });

  it('chat stream: asks the upstream for usage, passes chunks through, bills the usage', async () => {
    const { userId, sdk } = await newUser(QUOTA, TOKEN_CAP);
    upstream.setDefaults({ chunks: 5, usage: { prompt_tokens: 40 } });
    const stream = await sdk.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('tok tok tok tok tok ');
    expect(upstream.requestsTo('/chat/completions')[0]!.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    const receipt = await receiptOf(userId);
    expect(receipt).toMatchObject({
      promptTokens: 40,
      completionTokens: 5,
      stream: true,
      estimated: false,
    });
    expect(receipt.quota).toBe(Math.round((40 + 5 * 4) * 1.25));
    expect(receipt.firstTokenMs).not.toBeNull();
    expect(book.userBalance(userId)).toBe(QUOTA - receipt.quota);
  });

  it('completions, embeddings (also via /engines), moderations, images, speech, transcription', async () => {
    const { userId, sdk, key } = await newUser(QUOTA, TOKEN_CAP);
    upstream.setDefaults({ usage: { prompt_tokens: 30, completion_tokens: 6 } });
    await sdk.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' });
    const embedding = await sdk.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'hello',
    });
    expect(embedding.data[0]!.embedding.length).toBeGreaterThan(0);
    const engines = await request(`${url}/v1/engines/text-embedding-3-small/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'hello' }),
    });
    expect(engines.statusCode).toBe(200);
    await engines.body.json();
    const moderation = await sdk.moderations.create({
      model: 'omni-moderation-latest',
      input: 'I will kill it',
    });
    expect(moderation.results[0]!.flagged).toBe(true);
    const images = await sdk.images.generate({ model: 'dall-e-3', prompt: 'a cat', n: 2 });
    expect(images.data).toHaveLength(2);
    const speech = await sdk.audio.speech.create({
      model: 'tts-1',
      input: 'Hello world',
      voice: 'alloy',
    });
    expect((await speech.arrayBuffer()).byteLength).toBe(1024);
    const transcription = await sdk.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(Buffer.from('RIFF....WAVEfmt '), 'a.wav', { type: 'audio/wav' }),
    });
    expect(typeof transcription.text).toBe('string');

    const mine = await receiptsOf(userId, 7);
    const by = (endpoint: string) => mine.filter((r) => r.endpoint === endpoint);
    expect(mine).toHaveLength(7);
    expect(by('/v1/completions')[0]!.quota).toBe(Math.round((30 + 6) * 0.75));
    expect(by('/v1/embeddings')[0]).toMatchObject({ promptTokens: 30, estimated: false });
    expect(by('/v1/engines/:model/embeddings')[0]!.model).toBe('text-embedding-3-small');
    expect(by('/v1/images/generations')[0]).toMatchObject({ quota: 2 * 20000, modelPrice: 0.04 });
    expect(by('/v1/audio/speech')[0]).toMatchObject({ estimated: true, promptTokens: 2 });
    expect(by('/v1/audio/transcriptions')[0]).toMatchObject({ model: 'whisper-1' });
    const total = mine.reduce((s, r) => s + r.quota, 0);
    expect(book.userBalance(userId)).toBe(QUOTA - total);
    // multipart passed through with its file intact
    const sent = upstream.requestsTo('/audio/transcriptions')[0]!.body as Array<{
      name: string;
      size?: number;
    }>;
    expect(sent.find((p) => p.name === 'file')?.size).toBe(16);
  });

  it('lists the models the token may use', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4o-mini');
    const one = await client.models.retrieve('gpt-4o');
    expect(one.id).toBe('gpt-4o');
    await expect(client.models.retrieve('nope')).rejects.toMatchObject({ status: 404 });
  });

  /**
   * 200 (or `count`) concurrent calls without max_tokens; each costs (100 + 0) × 1.25 = 125. The
   * first reserves its ceiling lowered to the whole balance; the others wait for it and take what
   * each settle gives back, so every one that fits is served.
   */
  async function burst(sdk: OpenAI, count: number) {
    const results = await Promise.allSettled(
      Array.from({ length: count }, () =>
        sdk.chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
      ),
    );
    const served = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter(
      (r) => r.status === 'rejected' && (r.reason as { status?: number }).status === 403,
    ).length;
    const exhausted = results.filter(
      (r) => r.status === 'rejected' && (r.reason as { status?: number }).status === 401,
    ).length;
    const codes = results.flatMap((r) =>
      r.status === 'rejected' ? [(r.reason as { error?: { code?: string } }).error?.code] : [],
    );
    return { served, refused, exhausted, codes };
  }

  it('no overdraft: 200 concurrent requests on a balance that covers 20', async () => {
    upstream.setDefaults({ usage: { prompt_tokens: 100, completion_tokens: 0 }, latencyMs: 20 });
    const { userId, sdk } = await newUser(20 * 125, 10_000_000);
    const { served, refused, codes } = await burst(sdk, 200);
    expect(served).toBe(20);
    expect(refused).toBe(180);
    expect(codes.every((code) => code === 'insufficient_user_quota')).toBe(true);
    const mine = await receiptsOf(userId, served);
    expect(mine).toHaveLength(20);
    expect(mine.reduce((s, r) => s + r.quota, 0)).toBe(20 * 125);
    expect(mine.every((r) => r.loweredBy === 'user_quota')).toBe(true);
    expect(book.userBalance(userId)).toBe(0);
    // 30 s: served one after another (each reservation holds what is left), slow on a loaded CI.
  }, 30_000);

  it('an upstream that ignores the ceiling is charged in full: the debt is recorded and refuses the next call', async () => {
    // max_tokens 10 reserves (prompt + 10 × 4) × 1.25; the upstream writes 400: (100 + 1600) × 1.25.
    const messages = [{ role: 'user' as const, content: 'x' }];
    const reserve = Math.round((estimatePromptTokens('chat', { messages }) + 40) * 1.25);
    const cost = 2125;
    // Slow enough that all forty reserve before the first answer settles.
    upstream.setDefaults({ usage: { prompt_tokens: 100, completion_tokens: 400 }, latencyMs: 300 });
    try {
      const { userId, sdk } = await newUser(20 * reserve, 10_000_000);
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, () =>
          sdk.chat.completions.create({
            model: 'gpt-4o',
            max_tokens: 10,
            messages,
          }),
        ),
      );
      const served = results.filter((r) => r.status === 'fulfilled').length;
      // Twenty reservations fit side by side; each answer then costs ten times its reservation.
      expect(served).toBe(20);
      const mine = await receiptsOf(userId, served);
      for (const r of mine) {
        expect(r).toMatchObject({
          quota: cost,
          reserved: reserve,
          overrun: cost - reserve,
          ceilingIgnored: true,
        });
      }
      expect(book.userBalance(userId)).toBe(20 * reserve - 20 * cost);
      // Every upstream request carried the client's ceiling.
      const sent = upstream.requestsTo('/chat/completions').slice(-20);
      expect(sent.every((r) => (r.body as { max_tokens?: number }).max_tokens === 10)).toBe(true);
      await expect(
        sdk.chat.completions.create({
          model: 'gpt-4o',
          max_tokens: 10,
          messages,
        }),
      ).rejects.toMatchObject({ status: 403, error: { code: 'insufficient_user_quota' } });
      await append(`billing-${userId}`, 'QuotaGranted', {
        userId,
        amount: 20 * cost - 20 * reserve + reserve,
        reason: 'topup',
      });
      await expect(
        sdk.chat.completions.create({
          model: 'gpt-4o',
          max_tokens: 10,
          messages,
        }),
      ).resolves.toMatchObject({ object: 'chat.completion' });
    } finally {
      upstream.setDefaults({ latencyMs: 20 });
    }
  });

  it('the same for a token cap smaller than the user balance', async () => {
    upstream.setDefaults({ usage: { prompt_tokens: 100, completion_tokens: 0 } });
    const { userId, tokenId, sdk } = await newUser(10_000_000, 20 * 125);
    const { served, refused, exhausted } = await burst(sdk, 200);
    expect(served).toBe(20);
    // refused at reservation (403), or at admission once the token is seen used up (401)
    expect(refused + exhausted).toBe(180);
    const mine = await receiptsOf(userId, served);
    expect(mine.reduce((s, r) => s + r.quota, 0)).toBe(20 * 125);
    expect(book.tokenRemaining(tokenId)).toBe(0);
    expect(book.userBalance(userId)).toBe(10_000_000 - 20 * 125);
    expect(commands.calls).toContain(`exhausted:${tokenId}`);
  }, 30_000);

  it('a client aborting a slow stream after 3 chunks is billed for the full upstream usage', async () => {
    const { userId, sdk } = await newUser(QUOTA, TOKEN_CAP);
    upstream.setDefaults({
      chunks: 20,
      chunkIntervalMs: 30,
      usage: { prompt_tokens: 50, completion_tokens: 20 },
    });
    const controller = new AbortController();
    const stream = await sdk.chat.completions.create(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'long story' }], stream: true },
      { signal: controller.signal },
    );
    let seen = 0;
    try {
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) seen += 1;
        if (seen === 3) {
          controller.abort();
          // Read no further: a chunk the SDK had already decoded would still come out of the loop.
          break;
        }
      }
    } catch {
      // the SDK reports the abort
    }
    // 3 of the upstream's 20 chunks reached the client before it left.
    expect(seen).toBe(3);
    const mine = await receiptOf(userId);
    expect(mine).toMatchObject({
      promptTokens: 50,
      completionTokens: 20,
      estimated: false,
      stream: true,
    });
    expect(mine.quota).toBe(Math.round((50 + 20 * 4) * 1.25));
  });

  it('retries skip tried channels and record the chain', async () => {
    setOption('RetryTimes', '3');
    routing.channels = [1, 2, 3].map((id) => channel({ id, baseUrl: upstream.url, priority: 10 }));
    upstream
      .forKey('sk-up-1', { fail: 'server_error' })
      .forKey('sk-up-2', { fail: 'server_error' });
    const { userId, sdk } = await newUser(QUOTA, TOKEN_CAP);
    service.rng = () => 0; // always the first untried candidate
    try {
      await sdk.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x' }],
      });
    } finally {
      service.rng = Math.random;
    }
    const keys = upstream.requestsTo('/chat/completions').map((r) => r.key);
    expect(keys).toEqual(['sk-up-1', 'sk-up-2', 'sk-up-3']);
    const receipt = await receiptOf(userId);
    expect(receipt.channelChain).toEqual([1, 2, 3]);
    expect(receipt.channelId).toBe(3);
    service.cooldowns.clear(1, 'gpt-4o-mini');
    service.cooldowns.clear(2, 'gpt-4o-mini');
  });

  it('a failing request releases its reservation and answers the OpenAI error shape', async () => {
    const { userId, sdk } = await newUser(QUOTA, TOKEN_CAP);
    upstream.setDefaults({ fail: 'server_error' });
    const error = (await sdk.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as { status: number; error: { message: string; type: string } };
    expect(error.status).toBe(500);
    expect(error.error.message).toMatch(/\(request id: [0-9a-f]{32}\)$/);
    expect(book.userBalance(userId)).toBe(QUOTA);
    service.cooldowns.clear(1, 'gpt-4o-mini');
  });

  it('a channel whose URL cannot be built fails like a network error: failover, nothing stays reserved', async () => {
    setOption('RetryTimes', '1');
    // A Custom channel saved without a base URL (the channel rules allow an empty one).
    const broken = channel({ id: 11, type: 8, baseUrl: '', priority: 10 });
    routing.channels = [broken, channel({ id: 12, baseUrl: upstream.url, priority: 0 })];
    const { userId, sdk } = await newUser(QUOTA, TOKEN_CAP);
    const chat = () =>
      sdk.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x' }],
      });
    expect((await chat()).choices).toHaveLength(1);
    const receipt = await receiptOf(userId);
    expect(receipt.channelChain).toEqual([11, 12]);
    routing.channels = [broken];
    const error = (await chat().then(
      () => undefined,
      (e: unknown) => e,
    )) as { status: number; error: { code: string } };
    expect(error.status).toBe(502);
    expect(error.error.code).toBe('upstream_unreachable');
    expect(book.userBalance(userId)).toBe(QUOTA - receipt.quota);
    service.cooldowns.clear(11, 'gpt-4o-mini');
  });

  it('a 401 channel is disabled with its reason and is not picked again', async () => {
    setOption('AutomaticDisableChannelEnabled', 'true');
    setOption('RetryTimes', '1');
    routing.channels = [
      channel({ id: 7, baseUrl: upstream.url, priority: 10 }),
      channel({ id: 8, baseUrl: upstream.url, priority: 0 }),
    ];
    upstream.forKey('sk-up-7', { fail: 'invalid_key' });
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(answer.choices).toHaveLength(1);
    expect(commands.calls.find((c) => c.startsWith('disable:7:'))).toMatch(
      /^disable:7:status 401, code invalid_api_key/,
    );
    expect(routing.candidates('default', 'gpt-4o-mini').map((c) => c.id)).toEqual([8]);
  });

  it('admission errors: bad key, model limits, unknown price, no channel, 501, rate limits', async () => {
    const raw = (path: string, key: string, body?: object, method = 'POST') =>
      request(`${url}${path}`, {
        method: method as 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      }).then(async (r) => ({
        status: r.statusCode,
        headers: r.headers,
        body: (await r.body.json()) as any,
      }));
    const chat = { model: 'gpt-4o-mini', messages: [] };
    expect((await raw('/v1/chat/completions', 'sk-nope', chat)).status).toBe(401);
    const limited = await newUser(QUOTA, TOKEN_CAP, {
      modelLimitsEnabled: true,
      modelLimits: ['gpt-4o'],
    });
    const denied = await raw('/v1/chat/completions', `sk-${limited.key}`, chat);
    expect(denied).toMatchObject({ status: 403, body: { error: { code: 'model_not_allowed' } } });
    const unknown = await raw('/v1/chat/completions', `sk-${limited.key}`, {
      ...chat,
      model: 'gpt-4o',
    });
    expect(unknown.status).toBe(200);
    routing.channels = [channel({ id: 1, baseUrl: upstream.url, models: ['mystery'] })];
    const noPrice = await raw('/v1/chat/completions', `sk-${limited.key}`, {
      ...chat,
      model: 'mystery',
    });
    expect(noPrice).toMatchObject({ status: 403 });
    const none = await raw('/v1/chat/completions', `sk-${limited.key}`, chat);
    expect(none.status).toBe(403);
    const other = await newUser(QUOTA, TOKEN_CAP);
    expect((await raw('/v1/chat/completions', `sk-${other.key}`, chat)).status).toBe(503);
    expect((await raw('/v1/images/variations', `sk-${other.key}`, {})).body.error.code).toBe(
      'api_not_implemented',
    );
    expect((await raw('/v1/chat/completions', `sk-${other.key}`)).status).toBe(400);
    const limitedRpm = await newUser(QUOTA, TOKEN_CAP, {
      rateLimits: { rpm: 1, tpm: 0, concurrency: 0 },
    });
    routing.channels = [channel({ id: 1, baseUrl: upstream.url })];
    expect((await raw('/v1/chat/completions', `sk-${limitedRpm.key}`, chat)).status).toBe(200);
    const second = await raw('/v1/chat/completions', `sk-${limitedRpm.key}`, chat);
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
  });
});
