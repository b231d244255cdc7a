import type { JsonObject } from '@tollgate/relay';
import { COHERE_ADAPTOR } from '@tollgate/relay/providers/cohere/cohere-adaptor';
import { SseFramer, eventObject } from '@tollgate/relay/providers/framing';
import { MockUpstream } from '../mock-upstream';

const textOf = (delta: unknown): string => {
  const content = (delta as JsonObject | undefined)?.content;
  return typeof content === 'string' ? content : '';
};

describe('Cohere wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const post = (path: string, body: object, behavior?: object, key = 'co-key') =>
    fetch(`${upstream.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        ...(behavior ? { 'x-mock-behavior': JSON.stringify(behavior) } : {}),
      },
      body: JSON.stringify(body),
    });
  const events = (text: string) => {
    const framer = new SseFramer();
    return [...framer.push(Buffer.from(text)), ...framer.end()].map((e) => ({
      name: e.name,
      data: eventObject(e)!,
    }));
  };

  it('answers /v2/chat with JSON when stream is not true', async () => {
    upstream.setDefaults({ content: 'Hi!', usage: { prompt_tokens: 12, completion_tokens: 2 } });
    const res = await post('/v2/chat', {
      model: 'command-a',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      finish_reason: 'COMPLETE',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Hi!' }] },
      usage: {
        billed_units: { input_tokens: 12, output_tokens: 2 },
        tokens: { input_tokens: 12, output_tokens: 2 },
      },
    });
    expect(upstream.lastRequest()).toMatchObject({ path: '/v2/chat', key: 'co-key' });
  });

  it('streams typed SSE events with stream: true, usage on message-end', async () => {
    const res = await post('/v2/chat', { model: 'c', messages: [], stream: true }, { chunks: 2 });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const got = events(await res.text());
    expect(got.map((e) => e.name)).toEqual([
      'message-start',
      'content-start',
      'content-delta',
      'content-delta',
      'content-end',
      'message-end',
    ]);
    // The event name is also the data's type.
    expect(got.every((e) => e.data.type === e.name)).toBe(true);
    expect(got[2]!.data).toMatchObject({ delta: { message: { content: { text: 'tok ' } } } });
    expect(got[5]!.data).toMatchObject({
      delta: {
        finish_reason: 'COMPLETE',
        usage: { tokens: { input_tokens: 10, output_tokens: 2 } },
      },
    });
  });

  it('breaks the stream after the configured chunks, without message-end', async () => {
    const res = await post(
      '/v2/chat',
      { model: 'c', messages: [], stream: true },
      { chunks: 5, breakAfterChunks: 1 },
    );
    let text = '';
    const reader = res.body!.getReader();
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        text += Buffer.from(r.value).toString('utf8');
      }
    } catch {
      // the break
    }
    expect(events(text).map((e) => e.name)).toEqual([
      'message-start',
      'content-start',
      'content-delta',
    ]);
  });

  it('round-trips through the Cohere adaptor: request, SSE framing, chunks and usage', async () => {
    upstream.setDefaults({ content: 'Hello world', chunks: 3, usage: { prompt_tokens: 5 } });
    const channel = {
      type: 34,
      baseUrl: upstream.url,
      key: 'co-key',
      other: '',
      openaiOrganization: '',
      modelMapping: {},
    };
    const req = COHERE_ADAPTOR.request(
      'chat',
      { model: 'command-a', messages: [{ role: 'user', content: 'hi' }] },
      channel,
      'command-a-03-2025',
      true,
      new Date(0),
    );
    const res = await fetch(`${req.origin}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body,
    });
    const converter = COHERE_ADAPTOR.stream({ id: 'chatcmpl-x', model: 'command-a', created: 1 });
    const chunks: JsonObject[] = [];
    for (const event of events(await res.text())) {
      chunks.push(...converter.event(event.data, event.name));
    }
    chunks.push(...converter.end());
    const deltas = chunks.map((c) => (c.choices as JsonObject[])[0]);
    expect(deltas.map((d) => textOf(d?.delta)).join('')).toBe('Hello world');
    expect(deltas.at(-2)?.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
  });

  it('reranks on /v2/rerank, best first, top_n, billed in search units', async () => {
    const res = await post('/v2/rerank', {
      model: 'rerank-v3.5',
      query: 'capital of France',
      documents: ['Berlin is in Germany', 'Paris is the capital of France', 'Nevada'],
      top_n: 2,
    });
    const body = (await res.json()) as JsonObject;
    const results = body.results as JsonObject[];
    expect(results.map((r) => r.index)).toEqual([1, 0]);
    expect(results[0]!.document).toBeUndefined();
    expect(body.meta).toEqual({ api_version: { version: '2' }, billed_units: { search_units: 1 } });
  });

  it('embeds on /v2/embed with float vectors and billed input tokens', async () => {
    const res = await post('/v2/embed', {
      model: 'embed-v4.0',
      texts: ['a', 'b', 'c'],
      input_type: 'search_document',
      embedding_types: ['float'],
    });
    const body = (await res.json()) as JsonObject;
    expect((body.embeddings as JsonObject).float).toHaveLength(3);
    expect(body.meta).toMatchObject({ billed_units: { input_tokens: 10 } });
  });

  it('answers a wrong key with 401 {"message": "invalid api token"}', async () => {
    upstream.acceptKeys(['co-good']);
    const res = await post('/v2/chat', { model: 'c', messages: [] }, undefined, 'co-bad');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'invalid api token' });
  });

  it('answers canned failures in Cohere error bodies', async () => {
    const cases: Array<[object, number, RegExp]> = [
      [{ fail: 'rate_limit', retryAfterSeconds: 2 }, 429, /Trial key/],
      [{ fail: 'quota_exceeded' }, 402, /payment method/],
      [{ fail: 'server_error' }, 500, /internal server error/],
      [{ status: 503 }, 503, /mock status 503/],
    ];
    for (const [behavior, status, message] of cases) {
      const res = await post('/v2/chat', { model: 'c', messages: [] }, behavior);
      const body = (await res.json()) as JsonObject;
      expect(res.status).toBe(status);
      expect(body.message).toMatch(message);
      expect(typeof body.id).toBe('string');
      if (status === 429) expect(res.headers.get('retry-after')).toBe('2');
    }
  });
});
