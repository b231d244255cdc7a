import type { JsonObject } from '@tollgate/relay';
import { SseFramer, eventObject } from '@tollgate/relay/providers/framing';
import { DIFY_ADAPTOR } from '@tollgate/relay/providers/dify/dify-adaptor';
import { MockUpstream } from '../mock-upstream';

const textOf = (delta: unknown): string => {
  const content = (delta as JsonObject | undefined)?.content;
  return typeof content === 'string' ? content : '';
};

describe('Dify wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const ctx = { id: 'chatcmpl-x', model: 'dify', created: 1 };
  const send = (stream: boolean, behavior?: object) => {
    const req = DIFY_ADAPTOR.request(
      'chat',
      { messages: [{ role: 'user', content: 'hi' }] },
      {
        type: 37,
        baseUrl: upstream.url,
        key: 'app-test',
        other: '',
        openaiOrganization: '',
        modelMapping: {},
      },
      'dify',
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

  it('answers a blocking call the adaptor converts, with the app key recorded', async () => {
    upstream.setDefaults({
      content: 'Hello there',
      usage: { prompt_tokens: 12, completion_tokens: 3 },
    });
    const res = await send(false);
    expect(DIFY_ADAPTOR.response('chat', (await res.json()) as JsonObject, ctx)).toMatchObject({
      ok: true,
      body: { choices: [{ message: { content: 'Hello there' } }] },
      usage: { promptTokens: 12, completionTokens: 3 },
    });
    expect(upstream.lastRequest()).toMatchObject({
      path: '/v1/chat-messages',
      key: 'app-test',
      body: { query: 'hi', response_mode: 'blocking', user: 'tollgate', inputs: {} },
    });
  });

  it('round-trips a stream with pings: SSE framing, chunks and message_end usage', async () => {
    upstream.setDefaults({ content: 'abcdef', chunks: 3, usage: { prompt_tokens: 9 } });
    const res = await send(true);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const converter = DIFY_ADAPTOR.stream(ctx);
    const framer = new SseFramer();
    const chunks: JsonObject[] = [];
    for (const e of [...framer.push(Buffer.from(await res.arrayBuffer())), ...framer.end()]) {
      const data = eventObject(e);
      if (data) chunks.push(...converter.event(data, e.name));
    }
    chunks.push(...converter.end());
    const text = chunks.map((c) => textOf((c.choices as JsonObject[])[0]?.delta)).join('');
    expect(text).toBe('abcdef');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
    });
  });

  it('answers canned failures as {code, message, status} the adaptor reads', async () => {
    const cases: Array<[object, number, string, string]> = [
      [{ fail: 'invalid_key' }, 401, 'unauthorized', 'authentication_error'],
      [{ fail: 'rate_limit' }, 429, 'too_many_requests', 'rate_limit_error'],
      [{ fail: 'quota_exceeded' }, 400, 'provider_quota_exceeded', 'insufficient_quota'],
      [{ fail: 'server_error' }, 500, 'internal_server_error', 'upstream_error'],
    ];
    for (const [behavior, status, code, type] of cases) {
      const res = await send(false, behavior);
      expect(res.status).toBe(status);
      expect(DIFY_ADAPTOR.error(status, await res.text())).toMatchObject({ code, type });
    }
  });
});
