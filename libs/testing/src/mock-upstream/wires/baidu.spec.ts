import type { JsonObject } from '@tollgate/relay';
import { SseFramer, eventObject } from '@tollgate/relay/providers/framing';
import { BAIDU_ADAPTOR, baiduAdaptor } from '@tollgate/relay/providers/baidu/baidu-adaptor';
import { BaiduTokenCache } from '@tollgate/relay/providers/baidu/baidu-token';
import { MockUpstream } from '../mock-upstream';

const textOf = (delta: unknown): string => {
  const content = (delta as JsonObject | undefined)?.content;
  return typeof content === 'string' ? content : '';
};
import { baiduMockToken } from './baidu';

describe('Baidu ERNIE wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const channel = () => ({
    type: 15,
    baseUrl: upstream.url,
    key: 'mock-ak|mock-sk',
    other: '',
    openaiOrganization: '',
    modelMapping: {},
  });
  const ctx = { id: 'chatcmpl-x', model: 'ernie-4.0-8k', created: 1 };
  // A fresh cache per test: the process-wide one would keep tokens across tests.
  const adaptor = () => baiduAdaptor(new BaiduTokenCache());
  const send = async (a = adaptor(), stream = false, behavior?: object) => {
    const ch = channel();
    const req = await a.authorize!(
      a.request(
        'chat',
        { messages: [{ role: 'user', content: 'hi' }] },
        ch,
        'ernie-4.0-8k',
        stream,
        new Date(),
      ),
      ch,
      new Date(),
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

  it('exchanges the key once at /oauth/2.0/token, then answers JSON the adaptor converts', async () => {
    upstream.setDefaults({ content: 'Hello', usage: { prompt_tokens: 4, completion_tokens: 2 } });
    const a = adaptor();
    await send(a);
    const res = await send(a);
    const paths = upstream.requests.map((r) => r.path);
    expect(paths).toEqual([
      '/oauth/2.0/token',
      '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro',
      '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro',
    ]);
    expect(upstream.requests[0]!.query).toEqual({
      grant_type: 'client_credentials',
      client_id: 'mock-ak',
      client_secret: 'mock-sk',
    });
    expect(upstream.lastRequest()!.query).toEqual({ access_token: baiduMockToken('mock-ak') });
    expect(BAIDU_ADAPTOR.response('chat', (await res.json()) as JsonObject, ctx)).toMatchObject({
      ok: true,
      body: { choices: [{ message: { content: 'Hello' }, finish_reason: 'stop' }] },
      usage: { promptTokens: 4, completionTokens: 2 },
    });
  });

  it('round-trips a stream: SSE framing, chunks and the last event usage', async () => {
    upstream.setDefaults({ content: 'abcdef', chunks: 3, usage: { prompt_tokens: 5 } });
    const res = await send(adaptor(), true);
    const converter = BAIDU_ADAPTOR.stream(ctx);
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
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
  });

  it('answers error 110 in a 200 body for a call without a valid token', async () => {
    const res = await fetch(
      `${upstream.url}/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"messages":[]}',
      },
    );
    expect(res.status).toBe(200);
    const converted = BAIDU_ADAPTOR.response('chat', (await res.json()) as JsonObject, ctx);
    expect(converted).toMatchObject({ ok: false, failure: { status: 401, info: { code: '110' } } });
  });

  it('answers the OAuth error for a bad exchange, which authorize() reports', async () => {
    const res = await fetch(`${upstream.url}/oauth/2.0/token?grant_type=client_credentials`, {
      method: 'POST',
    });
    expect([res.status, await res.json()]).toEqual([
      401,
      { error: 'invalid_client', error_description: 'unknown client id' },
    ]);
  });

  it('answers canned failures as {error_code, error_msg} in 200 bodies', async () => {
    const cases: Array<[object, number, string, number]> = [
      [{ fail: 'invalid_key' }, 200, '110', 401],
      [{ fail: 'rate_limit' }, 200, '18', 429],
      [{ fail: 'quota_exceeded' }, 200, '17', 429],
      [{ fail: 'server_error' }, 200, '336100', 500],
    ];
    for (const [behavior, status, code, converted] of cases) {
      const res = await send(adaptor(), false, behavior);
      expect(res.status).toBe(status);
      const answer = BAIDU_ADAPTOR.response('chat', (await res.json()) as JsonObject, ctx);
      expect(answer).toMatchObject({ ok: false, failure: { status: converted, info: { code } } });
    }
    const res = await send(adaptor(), false, { status: 503 });
    expect(res.status).toBe(503);
    expect(BAIDU_ADAPTOR.error(503, await res.text())).toMatchObject({ code: '336000' });
  });
});
