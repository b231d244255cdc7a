import { request } from 'undici';
import { signBedrockRequest } from '@tollgate/relay/providers/bedrock/bedrock-signing';
import { AwsEventStreamFramer } from '@tollgate/relay/providers/bedrock/event-stream-framer';
import { MockUpstream } from '../mock-upstream';
import { BEDROCK_WIRE } from './bedrock';

const MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const credentials = { accessKeyId: 'AKIDMOCK', secretAccessKey: 'secret' };
const now = new Date('2026-02-03T04:05:06Z');

describe('Bedrock wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  /** A request signed the way the gateway signs it. */
  const sign = (action: 'invoke' | 'invoke-with-response-stream') =>
    signBedrockRequest(
      {
        origin: upstream.url,
        path: `/model/${encodeURIComponent(MODEL)}/${action}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: Buffer.from(
          JSON.stringify({
            anthropic_version: 'bedrock-2023-05-31',
            max_tokens: 50,
            messages: [{ role: 'user', content: 'hi' }],
          }),
        ),
      },
      credentials,
      'us-east-1',
      now,
    );

  /** A signed call; `headers` override the signed ones. */
  async function call(action: 'invoke' | 'invoke-with-response-stream', headers = {}) {
    const signed = await sign(action);
    const res = await request(`${signed.origin}${signed.path}`, {
      method: 'POST',
      headers: { ...signed.headers, ...headers },
      body: signed.body,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, bytes };
  }

  const json = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;

  function events(bytes: Buffer) {
    const framer = new AwsEventStreamFramer();
    return [...framer.push(bytes), ...framer.end()].map(
      (e) => JSON.parse(e.data) as Record<string, any>,
    );
  }

  it('answers InvokeModel with a Messages answer and records the signed call', async () => {
    upstream.setDefaults({
      content: 'Hello there',
      usage: {
        prompt_tokens: 30,
        completion_tokens: 4,
        cached_tokens: 20,
        cache_creation_tokens: 5,
      },
    });
    const res = await call('invoke');
    expect(res.status).toBe(200);
    expect(res.headers['x-amzn-bedrock-input-token-count']).toBe('30');
    expect(json(res.bytes)).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: 'Hello there' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 5,
        cache_read_input_tokens: 20,
        cache_creation_input_tokens: 5,
        output_tokens: 4,
      },
    });
    const recorded = upstream.lastRequest()!;
    expect(recorded.path).toBe(`/model/${encodeURIComponent(MODEL)}/invoke`);
    expect(recorded.key).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDMOCK\/20260203\/us-east-1\/bedrock\/aws4_request, /,
    );
    expect(recorded.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31' });
  });

  it('streams Anthropic events in binary event-stream messages', async () => {
    upstream.setDefaults({ chunks: 3, usage: { prompt_tokens: 12 } });
    const res = await call('invoke-with-response-stream');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    const got = events(res.bytes);
    expect(got.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(got[0]!.message.usage).toMatchObject({ input_tokens: 12 });
    expect(
      got
        .filter((e) => e.type === 'content_block_delta')
        .map((e) => e.delta.text)
        .join(''),
    ).toBe('tok tok tok ');
    expect(got[6]).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 3 },
    });
  });

  it('paces the stream and breaks it after N chunks', async () => {
    upstream.setDefaults({ chunks: 4, chunkIntervalMs: 5, breakAfterChunks: 2 });
    const signed = await sign('invoke-with-response-stream');
    const res = await request(`${signed.origin}${signed.path}`, {
      method: 'POST',
      headers: signed.headers,
      body: signed.body,
    });
    const received: Buffer[] = [];
    // The reset surfaces as a body error after the written messages.
    await expect(
      (async () => {
        for await (const piece of res.body) received.push(piece as Buffer);
      })(),
    ).rejects.toThrow();
    const types = events(Buffer.concat(received)).map((e) => e.type);
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
    ]);
  });

  it('refuses a call without a SigV4 Authorization', async () => {
    const missing = await call('invoke', { authorization: '' });
    expect(missing.status).toBe(403);
    expect(missing.headers['x-amzn-errortype']).toBe('MissingAuthenticationTokenException');
    const bearer = await call('invoke', { authorization: 'Bearer sk-1' });
    expect(bearer.status).toBe(403);
    expect(bearer.headers['x-amzn-errortype']).toBe('IncompleteSignatureException');
  });

  it.each([
    [
      'invalid_key',
      403,
      'UnrecognizedClientException',
      'The security token included in the request is invalid.',
    ],
    [
      'rate_limit',
      429,
      'ThrottlingException',
      'Too many requests, please wait before trying again.',
    ],
    ['server_error', 500, 'InternalServerException', expect.any(String)],
  ] as const)('answers %s in Bedrock’s shape', async (fail, status, type, message) => {
    upstream.next({ fail });
    const res = await call('invoke');
    expect(res.status).toBe(status);
    expect(res.headers['x-amzn-errortype']).toBe(type);
    expect(json(res.bytes)).toEqual({ message });
  });

  it('answers an explicit status with the matching exception type', async () => {
    upstream.next({ status: 400 });
    const res = await call('invoke');
    expect(res.status).toBe(400);
    expect(res.headers['x-amzn-errortype']).toBe('ValidationException');
  });

  it('names the model from the path for per-model rules', async () => {
    upstream.forModel(MODEL, { content: 'per model' });
    expect(json((await call('invoke')).bytes).content).toEqual([
      { type: 'text', text: 'per model' },
    ]);
    expect(BEDROCK_WIRE.modelOf!(`/x/model/${encodeURIComponent(MODEL)}/invoke`)).toBe(MODEL);
    expect(BEDROCK_WIRE.matches('POST', '/v1/chat/completions')).toBe(false);
  });
});
