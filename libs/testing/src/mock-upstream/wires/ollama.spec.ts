import type { JsonObject } from '@tollgate/relay';
import { NdjsonFramer, eventObject } from '@tollgate/relay/providers/framing';
import { OLLAMA_ADAPTOR } from '@tollgate/relay/providers/ollama/ollama-adaptor';
import { MockUpstream } from '../mock-upstream';

const textOf = (delta: unknown): string => {
  const content = (delta as JsonObject | undefined)?.content;
  return typeof content === 'string' ? content : '';
};

describe('Ollama wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const post = (path: string, body: object, behavior?: object) =>
    fetch(`${upstream.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(behavior ? { 'x-mock-behavior': JSON.stringify(behavior) } : {}),
      },
      body: JSON.stringify(body),
    });
  const lines = (text: string) =>
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as JsonObject);

  it('answers /api/chat with one JSON object when stream is false', async () => {
    upstream.setDefaults({
      content: 'Hello there',
      usage: { prompt_tokens: 26, completion_tokens: 4 },
    });
    const res = await post('/api/chat', {
      model: 'llama3.2',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({
      model: 'llama3.2',
      message: { role: 'assistant', content: 'Hello there' },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 26,
      eval_count: 4,
    });
    expect(upstream.lastRequest()).toMatchObject({ path: '/api/chat', key: '' });
  });

  it('streams NDJSON when stream is absent (Ollama streams by default)', async () => {
    const res = await post('/api/chat', { model: 'llama3.2', messages: [] }, { chunks: 3 });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const objects = lines(await res.text());
    expect(objects.map((o) => (o.message as JsonObject).content)).toEqual([
      'tok ',
      'tok ',
      'tok ',
      '',
    ]);
    expect(objects.slice(0, 3).every((o) => o.done === false)).toBe(true);
    expect(objects[3]).toMatchObject({ done: true, prompt_eval_count: 10, eval_count: 3 });
  });

  it('paces chunks and breaks after the configured count without the done line', async () => {
    const started = Date.now();
    const res = await post(
      '/api/chat',
      { model: 'm', messages: [], stream: true },
      { chunks: 4, chunkIntervalMs: 30, breakAfterChunks: 2 },
    );
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
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const objects = lines(text);
    expect(objects).toHaveLength(2);
    expect(objects.some((o) => o.done === true)).toBe(false);
  });

  it('round-trips through the Ollama adaptor: request, NDJSON framing, chunks and usage', async () => {
    upstream.setDefaults({ content: 'abcdef', chunks: 2, usage: { prompt_tokens: 7 } });
    const channel = {
      type: 4,
      baseUrl: upstream.url,
      key: '',
      other: '',
      openaiOrganization: '',
      modelMapping: {},
    };
    const req = OLLAMA_ADAPTOR.request(
      'chat',
      { model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: true },
      channel,
      'llama3.2',
      true,
      new Date(0),
    );
    const res = await fetch(`${req.origin}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body,
    });
    const converter = OLLAMA_ADAPTOR.stream({ id: 'chatcmpl-x', model: 'llama3.2', created: 1 });
    const framer = new NdjsonFramer();
    const chunks: JsonObject[] = [];
    for (const event of [...framer.push(Buffer.from(await res.arrayBuffer())), ...framer.end()]) {
      chunks.push(...converter.event(eventObject(event)!));
    }
    chunks.push(...converter.end());
    const text = chunks.map((c) => textOf((c.choices as JsonObject[])[0]?.delta)).join('');
    expect(text).toBe('abcdef');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    });
  });

  it('answers /api/embed with one vector per input and prompt_eval_count', async () => {
    const res = await post('/api/embed', { model: 'all-minilm', input: ['a', 'b'] });
    const body = (await res.json()) as JsonObject;
    expect(body).toMatchObject({ model: 'all-minilm', prompt_eval_count: 10 });
    expect(body.embeddings).toHaveLength(2);
  });

  it('lists models on GET /api/tags', async () => {
    upstream.setDefaults({ models: ['llama3.2:latest', 'qwen2.5:7b'] });
    const body = (await (await fetch(`${upstream.url}/api/tags`)).json()) as JsonObject;
    expect((body.models as JsonObject[]).map((m) => m.name)).toEqual([
      'llama3.2:latest',
      'qwen2.5:7b',
    ]);
  });

  it('answers 404 {error} for a model it has not pulled', async () => {
    upstream.setDefaults({ models: ['llama3.2:latest'] });
    const known = await post('/api/chat', { model: 'llama3.2', messages: [], stream: false });
    expect(known.status).toBe(200);
    const res = await post('/api/chat', { model: 'llama9', messages: [], stream: false });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "model 'llama9' not found" });
  });

  it('answers canned failures in the {"error": "..."} shape', async () => {
    const cases: Array<[object, number, string]> = [
      [{ fail: 'invalid_key' }, 401, 'unauthorized'],
      [{ fail: 'rate_limit', retryAfterSeconds: 3 }, 429, 'too many requests, please retry later'],
      [{ fail: 'server_error' }, 500, 'llama runner process has terminated: exit status 2'],
      [{ status: 503 }, 503, 'mock status 503'],
    ];
    for (const [behavior, status, message] of cases) {
      const res = await post('/api/chat', { model: 'm', messages: [] }, behavior);
      expect([res.status, await res.json()]).toEqual([status, { error: message }]);
      if (status === 429) expect(res.headers.get('retry-after')).toBe('3');
    }
  });
});
