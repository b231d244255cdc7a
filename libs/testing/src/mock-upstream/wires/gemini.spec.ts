import type { JsonObject } from '@tollgate/relay';
import { SseFramer, eventObject } from '@tollgate/relay/providers/framing';
import { GEMINI_ADAPTOR } from '@tollgate/relay/providers/gemini/gemini-adaptor';
import { MockUpstream } from '../mock-upstream';

describe('Gemini wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const call = (path: string, body: object = {}, behavior?: object, key = 'AIza-good') =>
    fetch(`${upstream.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-goog-api-key': key,
        ...(behavior ? { 'x-mock-behavior': JSON.stringify(behavior) } : {}),
      },
      body: JSON.stringify(body),
    });
  const chat = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
  const events = (text: string) =>
    text
      .split('\r\n\r\n')
      .filter((e) => e !== '')
      .map((e) => JSON.parse(e.replace(/^data: /, '')) as JsonObject);

  it('answers generateContent with usageMetadata (cached and thoughts)', async () => {
    const res = await call('/v1beta/models/gemini-2.5-flash:generateContent', chat, {
      content: 'Hello there',
      usage: { prompt_tokens: 26, completion_tokens: 9, cached_tokens: 20, reasoning_tokens: 4 },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      candidates: [
        {
          content: { parts: [{ text: 'Hello there' }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 26,
        candidatesTokenCount: 5,
        totalTokenCount: 35,
        cachedContentTokenCount: 20,
        thoughtsTokenCount: 4,
      },
      modelVersion: 'gemini-2.5-flash',
      responseId: expect.stringMatching(/^mock-gemini-/),
    });
    expect(upstream.lastRequest()).toMatchObject({
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      key: 'AIza-good',
    });
  });

  it('streams alt=sse events, the last one with the finish and the usage', async () => {
    const res = await call('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse', chat, {
      chunks: 3,
      chunkIntervalMs: 2,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const all = events(await res.text());
    expect(all).toHaveLength(4);
    expect(all.slice(0, 3).map((e) => (e.candidates as JsonObject[])[0]!.content)).toEqual([
      { parts: [{ text: 'tok ' }], role: 'model' },
      { parts: [{ text: 'tok ' }], role: 'model' },
      { parts: [{ text: 'tok ' }], role: 'model' },
    ]);
    expect(all.slice(0, 3).every((e) => e.usageMetadata === undefined)).toBe(true);
    expect(all[3]).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 },
    });
  });

  it('streams a JSON array without alt=sse', async () => {
    const res = await call('/v1beta/models/gemini-2.0-flash:streamGenerateContent', chat, {
      chunks: 2,
    });
    const body = (await res.json()) as JsonObject[];
    expect(body).toHaveLength(3);
    expect(body[2]).toMatchObject({ candidates: [{ finishReason: 'STOP' }] });
  });

  it('drops the connection after breakAfterChunks, with no finish and no usage', async () => {
    const res = await call('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse', chat, {
      chunks: 5,
      chunkIntervalMs: 5,
      breakAfterChunks: 2,
    });
    // The socket is destroyed mid-body: read what arrived before the reset.
    let text = '';
    const reader = res.body!.getReader();
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        text += Buffer.from(r.value).toString('utf8');
      }
    } catch {
      // the break
    }
    const sent = events(text);
    expect(sent).toHaveLength(2);
    expect(sent.every((e) => e.usageMetadata === undefined)).toBe(true);
    expect(text).not.toContain('STOP');
  });

  it('round-trips through the Gemini adaptor (request, SSE framing, conversion)', async () => {
    const wire = {
      type: 24,
      baseUrl: upstream.url,
      key: 'AIza-good',
      other: '',
      openaiOrganization: '',
      modelMapping: {},
    };
    const request = GEMINI_ADAPTOR.request(
      'chat',
      { messages: [{ role: 'user', content: 'hi' }], stream: true },
      wire,
      'gemini-2.0-flash',
      true,
      new Date(0),
    );
    const res = await fetch(`${request.origin}${request.path}`, {
      method: request.method,
      headers: { ...request.headers, 'x-mock-behavior': JSON.stringify({ content: 'abcdef' }) },
      body: request.body,
    });
    const framer = new SseFramer();
    const converter = GEMINI_ADAPTOR.stream({ id: 'c1', model: 'gemini-2.0-flash', created: 1 });
    const chunks: JsonObject[] = [];
    for (const event of [...framer.push(Buffer.from(await res.arrayBuffer())), ...framer.end()]) {
      const data = eventObject(event);
      if (data) chunks.push(...converter.event(data));
    }
    const text = chunks
      .map((c) => {
        const content = ((c.choices as JsonObject[])[0]?.delta as JsonObject).content;
        return typeof content === 'string' ? content : '';
      })
      .join('');
    expect(text).toBe('abcdef');
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
    expect(converter.usage()).toEqual({ promptTokens: 10, completionTokens: 3, cachedTokens: 0 });
    expect(upstream.lastRequest()?.query).toEqual({ alt: 'sse' });
  });

  it('answers batchEmbedContents and embedContent', async () => {
    const batch = await call('/v1beta/models/text-embedding-004:batchEmbedContents', {
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] } },
      ],
    });
    const embeddings = ((await batch.json()) as JsonObject).embeddings as JsonObject[];
    expect(embeddings).toHaveLength(2);
    expect(embeddings[0]!.values).toHaveLength(4);
    const single = await call('/v1beta/models/text-embedding-004:embedContent', {
      content: { parts: [{ text: 'a' }] },
    });
    expect(((await single.json()) as JsonObject).embedding).toMatchObject({
      values: expect.any(Array),
    });
  });

  it('lists models in Gemini shape', async () => {
    const res = await fetch(`${upstream.url}/v1beta/models`);
    const body = (await res.json()) as { models: JsonObject[] };
    expect(body.models.map((m) => m.name)).toEqual([
      'models/gemini-2.0-flash',
      'models/gemini-1.5-pro',
    ]);
    expect(body.models[0]).toMatchObject({
      supportedGenerationMethods: ['generateContent', 'countTokens'],
    });
    upstream.setDefaults({ models: ['gemini-embedding-001'] });
    const custom = (await (await fetch(`${upstream.url}/v1beta/models`)).json()) as {
      models: JsonObject[];
    };
    expect(custom.models).toEqual([
      expect.objectContaining({
        name: 'models/gemini-embedding-001',
        supportedGenerationMethods: ['embedContent', 'batchEmbedContents'],
      }),
    ]);
  });

  it('answers failures in Google error shape', async () => {
    upstream.acceptKeys(['AIza-good']);
    const bad = await call(
      '/v1beta/models/gemini-2.0-flash:generateContent',
      chat,
      undefined,
      'AIza-bad',
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
      },
    });
    const limited = await call('/v1beta/models/gemini-2.0-flash:generateContent', chat, {
      fail: 'rate_limit',
      retryAfterSeconds: 3,
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED' },
    });
    const server = await call('/v1beta/models/gemini-2.0-flash:generateContent', chat, {
      fail: 'server_error',
    });
    expect(await server.json()).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
    const unavailable = await call(
      '/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
      chat,
      {
        status: 503,
      },
    );
    expect(unavailable.status).toBe(503);
    const body = await unavailable.text();
    expect(JSON.parse(body)).toEqual({
      error: { code: 503, message: 'mock status 503', status: 'UNAVAILABLE' },
    });
    expect(GEMINI_ADAPTOR.error(503, body)).toEqual({
      message: 'mock status 503',
      type: 'unavailable',
      code: 'UNAVAILABLE',
    });
  });
});
