import type { JsonObject } from '@tollgate/relay';
import { SseFramer, eventObject } from '@tollgate/relay/providers/framing';
import { TENCENT_ADAPTOR } from '@tollgate/relay/providers/tencent/tencent-adaptor';
import { MockUpstream } from '../mock-upstream';

const textOf = (delta: unknown): string => {
  const content = (delta as JsonObject | undefined)?.content;
  return typeof content === 'string' ? content : '';
};

describe('Tencent Hunyuan wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const ctx = { id: 'chatcmpl-x', model: 'hunyuan-lite', created: 1 };
  const send = (stream: boolean, behavior?: object) => {
    const req = TENCENT_ADAPTOR.request(
      'chat',
      { messages: [{ role: 'user', content: 'hi' }] },
      {
        type: 23,
        baseUrl: upstream.url,
        key: '1300000000|AKIDmock|mock-secret',
        other: '',
        openaiOrganization: '',
        modelMapping: {},
      },
      'hunyuan-lite',
      stream,
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

  it('accepts the signed call and answers {Response} the adaptor converts', async () => {
    upstream.setDefaults({
      content: 'Hello there',
      usage: { prompt_tokens: 3, completion_tokens: 4 },
    });
    const res = await send(false);
    expect(TENCENT_ADAPTOR.response('chat', (await res.json()) as JsonObject, ctx)).toMatchObject({
      ok: true,
      body: { choices: [{ message: { content: 'Hello there' }, finish_reason: 'stop' }] },
      usage: { promptTokens: 3, completionTokens: 4 },
    });
    expect(upstream.lastRequest()).toMatchObject({
      path: '/',
      headers: { 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01' },
      body: { Model: 'hunyuan-lite', Messages: [{ Role: 'user', Content: 'hi' }], Stream: false },
    });
  });

  it('round-trips a stream: SSE framing, chunks and the last event usage', async () => {
    upstream.setDefaults({ content: 'abcdef', chunks: 3, usage: { prompt_tokens: 3 } });
    const res = await send(true);
    const converter = TENCENT_ADAPTOR.stream(ctx);
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
      usage: { prompt_tokens: 3, completion_tokens: 3 },
    });
  });

  it('refuses an unsigned call or one whose scope date does not match X-TC-Timestamp', async () => {
    const unsigned = await fetch(`${upstream.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tc-action': 'ChatCompletions' },
      body: '{}',
    });
    const failure = TENCENT_ADAPTOR.response('chat', (await unsigned.json()) as JsonObject, ctx);
    expect(failure).toMatchObject({
      ok: false,
      failure: { status: 401, info: { code: 'AuthFailure.SignatureFailure' } },
    });
    const stale = await fetch(`${upstream.url}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-tc-action': 'ChatCompletions',
        'x-tc-timestamp': '1551113065',
        authorization: `TC3-HMAC-SHA256 Credential=AKID/2024-01-01/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=${'a'.repeat(64)}`,
      },
      body: '{}',
    });
    expect(
      ((await stale.json()) as { Response: { Error: { Code: string } } }).Response.Error.Code,
    ).toBe('AuthFailure.SignatureFailure');
  });

  it('answers canned failures as Response.Error in 200 bodies', async () => {
    const cases: Array<[object, string, number]> = [
      [{ fail: 'invalid_key' }, 'AuthFailure.SecretIdNotFound', 401],
      [{ fail: 'rate_limit' }, 'LimitExceeded', 429],
      [{ fail: 'quota_exceeded' }, 'ResourceInsufficient.ChargeResourceExhaust', 402],
      [{ fail: 'server_error' }, 'InternalError', 500],
    ];
    for (const [behavior, code, status] of cases) {
      const res = await send(false, behavior);
      expect(res.status).toBe(200);
      const answer = TENCENT_ADAPTOR.response('chat', (await res.json()) as JsonObject, ctx);
      expect(answer).toMatchObject({ ok: false, failure: { status, info: { code } } });
    }
  });
});
