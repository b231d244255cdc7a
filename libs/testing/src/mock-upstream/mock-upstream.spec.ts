import OpenAI, { toFile } from 'openai';
import { request } from 'undici';
import { MockUpstream } from './mock-upstream';

describe('MockUpstream', () => {
  let upstream: MockUpstream;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    client = new OpenAI({ apiKey: 'sk-good', baseURL: `${upstream.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await request(`${upstream.url}${path}`, { headers });
    return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
  };

  it('lists models and records the request with its key', async () => {
    upstream.setDefaults({ models: ['m-1', 'm-2'] });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['m-1', 'm-2']);
    expect(upstream.lastRequest()).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      key: 'sk-good',
    });
  });

  it('answers a chat completion with the configured usage and content', async () => {
    upstream.forModel('gpt-4o', {
      content: 'Hello there',
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
    const answer = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0]!.message.content).toBe('Hello there');
    expect(answer.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    expect(upstream.requestsTo('/chat/completions')[0]!.body).toMatchObject({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('streams chunks and a final usage chunk when stream_options.include_usage is set', async () => {
    upstream.setDefaults({ chunks: 4, usage: { prompt_tokens: 5 } });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('tok tok tok tok ');
    expect(usage).toEqual({ prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 });
  });

  it('sends no usage chunk without include_usage', async () => {
    const res = await request(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'x', stream: true, messages: [] }),
    });
    const text = await res.body.text();
    expect(text).not.toContain('"usage"');
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
  });

  it('honours time to first chunk and the chunk interval', async () => {
    upstream.next({ firstChunkMs: 80, chunks: 3, chunkIntervalMs: 40 });
    const started = Date.now();
    const res = await request(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x', stream: true }),
    });
    const arrivals: number[] = [];
    for await (const _chunk of res.body) arrivals.push(Date.now() - started);
    expect(arrivals[0]).toBeGreaterThanOrEqual(75);
    expect(arrivals[arrivals.length - 1]!).toBeGreaterThanOrEqual(75 + 2 * 40 - 10);
  });

  it('delays the answer by latencyMs', async () => {
    upstream.next({ latencyMs: 100 });
    const started = Date.now();
    await get('/v1/models');
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('breaks a stream mid-way', async () => {
    upstream.next({ chunks: 5, breakAfterChunks: 2 });
    const stream = await client.chat.completions.create({
      model: 'x',
      messages: [],
      stream: true,
    });
    let text = '';
    await expect(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })(),
    ).rejects.toThrow();
    expect(text).toBe('tok tok ');
  });

  it('canned failures: 401 invalid key, 429 with Retry-After, 500', async () => {
    upstream.forKey('sk-bad', { fail: 'invalid_key' });
    const bad = await get('/v1/models', { authorization: 'Bearer sk-bad' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('invalid_api_key');
    expect(bad.body.error.message).not.toContain('sk-bad');

    upstream.next({ fail: 'rate_limit', retryAfterSeconds: 7 });
    const limited = await get('/v1/models');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');

    upstream.next({ fail: 'server_error' });
    expect((await get('/v1/models')).status).toBe(500);
    expect((await get('/v1/models')).status).toBe(200); // next() was for one call only
  });

  it('answers any status with a custom error body', async () => {
    upstream.next({ status: 503, errorBody: { error: { message: 'overloaded' } } });
    expect(await get('/v1/models')).toMatchObject({
      status: 503,
      body: { error: { message: 'overloaded' } },
    });
  });

  it('adds headers to any answer, its content type included', async () => {
    upstream.setDefaults({
      headers: { 'x-echo': 'sk-good', 'content-type': 'application/json; k=1' },
    });
    const ok = await get('/v1/models');
    expect(ok.headers['x-echo']).toBe('sk-good');
    expect(ok.headers['content-type']).toBe('application/json; k=1');
    upstream.next({ status: 401, errorBody: { error: { message: 'no' } } });
    expect((await get('/v1/models')).headers['x-echo']).toBe('sk-good');
  });

  it('ends a chat stream with an error event', async () => {
    upstream.next({ chunks: 2, streamError: { error: { message: 'key sk-good revoked' } } });
    const res = await request(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x', messages: [], stream: true }),
    });
    const events = (await res.body.text()).split('\n\n').filter(Boolean);
    expect(events).toHaveLength(4); // role, two chunks, the error
    expect(events[3]).toBe('data: {"error":{"message":"key sk-good revoked"}}');
  });

  it('restricts keys when asked', async () => {
    upstream.acceptKeys(['sk-good']);
    expect((await get('/v1/models', { authorization: 'Bearer sk-other' })).status).toBe(401);
    expect((await get('/v1/models', { authorization: 'Bearer sk-good' })).status).toBe(200);
  });

  it('the x-mock-behavior header configures one call', async () => {
    const res = await get('/v1/models', {
      'x-mock-behavior': JSON.stringify({ models: ['only'] }),
    });
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual(['only']);
  });

  it('completions (JSON and stream), embeddings, images, speech, moderations', async () => {
    const completion = await client.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'x',
    });
    expect(completion.choices[0]!.text).toBe('tok tok tok ');
    const stream = await client.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'x',
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamed = '';
    let usage: unknown;
    for await (const chunk of stream) {
      streamed += chunk.choices[0]?.text ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(streamed).toBe('tok tok tok ');
    expect(usage).toMatchObject({ completion_tokens: 3 });

    const embedding = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['a', 'b'],
    });
    expect(embedding.data).toHaveLength(2);
    const image = await client.images.generate({ model: 'dall-e-3', prompt: 'cat', n: 2 });
    expect(image.data).toHaveLength(2);
    const speech = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'hi',
    });
    expect((await speech.arrayBuffer()).byteLength).toBe(1024);
    const moderation = await client.moderations.create({ input: ['I will kill it', 'hello'] });
    expect(moderation.results.map((r) => r.flagged)).toEqual([true, false]);
  });

  it('reranks documents by the query, best first, top_n of them, with prompt-only usage', async () => {
    upstream.setDefaults({ usage: { prompt_tokens: 33 } });
    const res = await request(`${upstream.url}/v1/rerank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-good' },
      body: JSON.stringify({
        model: 'jina-reranker-v2',
        query: 'red apple',
        documents: ['a blue car', 'a red apple', 'an apple'],
        top_n: 2,
      }),
    });
    const body = (await res.body.json()) as any;
    expect(res.statusCode).toBe(200);
    expect(body.results.map((r: { index: number }) => r.index)).toEqual([1, 2]);
    expect(body.results[0].document).toEqual({ text: 'a red apple' });
    expect(body.usage).toEqual({ prompt_tokens: 33, total_tokens: 33 });
  });

  it('reads multipart transcriptions and records their fields', async () => {
    const file = await toFile(Buffer.alloc(3000, 1), 'hello.mp3', { type: 'audio/mpeg' });
    const result = await client.audio.transcriptions.create({ model: 'whisper-1', file });
    expect(result.text).toBe('mock transcription of hello.mp3 (3000 bytes)');
    const recorded = upstream.requestsTo('/audio/transcriptions')[0]!;
    expect(recorded.body).toEqual(
      expect.arrayContaining([
        { name: 'model', value: 'whisper-1', size: 9 },
        expect.objectContaining({ name: 'file', filename: 'hello.mp3', size: 3000 }),
      ]),
    );
  });

  it.each([
    ['/v1/dashboard/billing/subscription', (b: any) => b.hard_limit_usd - 2.5],
    ['/dashboard/billing/credit_grants', (b: any) => b.total_remaining],
    ['/api/report/getUserOverview', (b: any) => b.data.totalPoints],
    ['/api/v1/credits', (b: any) => b.data.total_credits - b.data.total_usage],
    ['/v1/user/info', (b: any) => Number(b.data.totalBalance)],
    ['/user/balance', (b: any) => Number(b.balance_infos[0].total_balance)],
  ])('balance endpoint %s reports the configured balance', async (path, read) => {
    upstream.forKey('sk-rich', { balance: 42.5 });
    const res = await get(path, { authorization: 'Bearer sk-rich' });
    expect(res.status).toBe(200);
    expect(read(res.body)).toBeCloseTo(42.5);
  });

  it('keeps at most recordLimit requests, none when 0', async () => {
    const quiet = await MockUpstream.start({ recordLimit: 0 });
    await request(`${quiet.url}/v1/models`).then((r) => r.body.dump());
    expect(quiet.requests).toHaveLength(0);
    await quiet.close();
  });
});
