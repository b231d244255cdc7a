import type { JsonObject } from '@tollgate/relay';
import { SseFramer, eventObject } from '@tollgate/relay/providers/framing';
import { ALI_ADAPTOR } from '@tollgate/relay/providers/ali/ali-adaptor';
import { MockUpstream } from '../mock-upstream';

const textOf = (delta: unknown): string => {
  const content = (delta as JsonObject | undefined)?.content;
  return typeof content === 'string' ? content : '';
};

const PATH = '/api/v1/services/aigc/text-generation/generation';

describe('Ali DashScope wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const channel = () => ({
    type: 17,
    baseUrl: upstream.url,
    key: 'sk-ali-test',
    other: '',
    openaiOrganization: '',
    modelMapping: {},
  });
  const send = (stream: boolean, behavior?: object) => {
    const req = ALI_ADAPTOR.request(
      'chat',
      { messages: [{ role: 'user', content: 'hi' }] },
      channel(),
      'qwen-plus',
      stream,
      new Date(0),
    );
    return fetch(`${req.origin}${req.path}`, {
      method: req.method,
      headers: {
        ...req.headers,
        ...(behavior ? { 'x-mock-behavior': JSON.stringify(behavior) } : {}),
      },
      body: req.body,
    });
  };
  const ctx = { id: 'chatcmpl-x', model: 'qwen-plus', created: 1 };

  it('answers JSON that the adaptor converts, with the Bearer key recorded', async () => {
    upstream.setDefaults({
      content: 'Hello there',
      usage: { prompt_tokens: 22, completion_tokens: 4 },
    });
    const res = await send(false);
    expect(res.status).toBe(200);
    const converted = ALI_ADAPTOR.response('chat', (await res.json()) as JsonObject, ctx);
    expect(converted).toMatchObject({
      ok: true,
      body: { choices: [{ message: { content: 'Hello there' }, finish_reason: 'stop' }] },
      usage: { promptTokens: 22, completionTokens: 4, cachedTokens: 0 },
    });
    expect(upstream.lastRequest()).toMatchObject({ path: PATH, key: 'sk-ali-test' });
    expect(upstream.lastRequest()!.body).toMatchObject({
      model: 'qwen-plus',
      input: { messages: [{ role: 'user', content: 'hi' }] },
    });
  });

  it('round-trips a stream: X-DashScope-SSE, SSE framing, incremental chunks and usage', async () => {
    upstream.setDefaults({
      content: 'abcdef',
      chunks: 3,
      usage: { prompt_tokens: 7, cached_tokens: 2 },
    });
    const res = await send(true);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const converter = ALI_ADAPTOR.stream(ctx);
    const framer = new SseFramer();
    const chunks: JsonObject[] = [];
    for (const e of [...framer.push(Buffer.from(await res.arrayBuffer())), ...framer.end()]) {
      chunks.push(...converter.event(eventObject(e)!, e.name));
    }
    chunks.push(...converter.end());
    const text = chunks.map((c) => textOf((c.choices as JsonObject[])[0]?.delta)).join('');
    expect(text).toBe('abcdef');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 7,
        completion_tokens: 3,
        prompt_tokens_details: { cached_tokens: 2 },
      },
    });
    expect(converter.failure()).toBeUndefined();
  });

  it('repeats the whole text per event without incremental_output', async () => {
    upstream.setDefaults({ content: 'abcd', chunks: 2 });
    const res = await fetch(`${upstream.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dashscope-sse': 'enable' },
      body: JSON.stringify({ model: 'qwen', input: { messages: [] }, parameters: {} }),
    });
    const contents = new SseFramer()
      .push(Buffer.from(await res.arrayBuffer()))
      .map(
        (e) =>
          (
            ((eventObject(e)!.output as JsonObject).choices as JsonObject[])[0]!
              .message as JsonObject
          ).content,
      );
    expect(contents).toEqual(['ab', 'abcd', 'abcd']);
  });

  it('answers canned failures as {code, message, request_id} the adaptor reads', async () => {
    const cases: Array<[object, number, string, string]> = [
      [{ fail: 'invalid_key' }, 401, 'InvalidApiKey', 'authentication_error'],
      [{ fail: 'rate_limit' }, 429, 'Throttling.RateQuota', 'rate_limit_error'],
      [{ fail: 'server_error' }, 500, 'InternalError', 'upstream_error'],
      [{ status: 503 }, 503, 'MockStatus', 'upstream_error'],
    ];
    for (const [behavior, status, code, type] of cases) {
      const res = await send(false, behavior);
      expect(res.status).toBe(status);
      expect(ALI_ADAPTOR.error(status, await res.text())).toMatchObject({ code, type });
    }
  });
});
