import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import type { WireChannel } from '../../openai/openai-wire';
import type { JsonObject } from '../../openai/request-body';
import { ANTHROPIC_ADAPTOR } from '../anthropic/anthropic-adaptor';
import type { ChatAdaptor, ProviderRequest } from '../chat-adaptor';
import { eventObject } from '../framing';
import {
  BEDROCK_ADAPTOR,
  BEDROCK_ANTHROPIC_VERSION,
  bedrockAdaptor,
  bedrockModelId,
} from './bedrock-adaptor';
import { BedrockKeyError } from './bedrock-key';
import { AwsEventStreamFramer } from './event-stream-framer';
import { wireChannel } from '../testing-fixtures';

const channel = wireChannel(33, {
  key: 'AKIDEXAMPLE|wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY|us-east-1',
});
const ctx = { id: 'chatcmpl-req1', model: 'claude-3-5-sonnet-20240620', created: 1_700_000_000 };
const now = new Date('2026-01-01T00:00:00Z');
const openai: JsonObject = {
  model: 'claude-3-5-sonnet-20240620',
  max_tokens: 100,
  user: 'u-1',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
};

function requestOf(
  stream: boolean,
  upstreamModel = 'claude-3-5-sonnet-20240620',
  on: Partial<WireChannel> = {},
) {
  const req = BEDROCK_ADAPTOR.request(
    'chat',
    { ...openai, stream },
    { ...channel, ...on },
    upstreamModel,
    stream,
    now,
  );
  return { req, body: JSON.parse(req.body.toString('utf8')) as JsonObject };
}

describe('Bedrock adaptor: request', () => {
  it('invokes the regional endpoint with the Bedrock model id in the path', () => {
    const { req } = requestOf(false);
    expect(req).toMatchObject({
      method: 'POST',
      origin: 'https://bedrock-runtime.us-east-1.amazonaws.com',
      path: '/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    // Never the channel key in a header: AWS gets only the signature.
    expect(JSON.stringify(req.headers)).not.toContain('wJalr');
    expect(req.headers['x-api-key']).toBeUndefined();
  });

  it('streams from invoke-with-response-stream asking for the event stream', () => {
    const { req, body } = requestOf(true);
    expect(req.path).toBe(
      '/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke-with-response-stream',
    );
    expect(req.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(body.stream).toBeUndefined();
  });

  it('sends the Messages body with anthropic_version instead of model, stream and metadata', () => {
    const { body } = requestOf(false);
    expect(body).toEqual({
      anthropic_version: BEDROCK_ANTHROPIC_VERSION,
      max_tokens: 100,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it("moves the Anthropic adaptor's anthropic-beta header into the body", () => {
    const withBeta: ChatAdaptor = {
      ...ANTHROPIC_ADAPTOR,
      request: (...args) => {
        const req = ANTHROPIC_ADAPTOR.request(...args);
        return { ...req, headers: { ...req.headers, 'anthropic-beta': 'a-1, b-2' } };
      },
    };
    const req = bedrockAdaptor(withBeta).request('chat', openai, channel, 'x', false, now);
    expect(JSON.parse(req.body.toString('utf8'))).toMatchObject({ anthropic_beta: ['a-1', 'b-2'] });
    expect(req.headers['anthropic-beta']).toBeUndefined();
  });

  it('uses a set base URL (the mock, a VPC endpoint) as the origin, keeping its path', () => {
    expect(requestOf(false, 'm', { baseUrl: 'http://127.0.0.1:9000/' }).req).toMatchObject({
      origin: 'http://127.0.0.1:9000',
      path: '/model/m/invoke',
    });
    expect(requestOf(false, 'm', { baseUrl: 'https://proxy.example/bedrock' }).req.path).toBe(
      '/bedrock/model/m/invoke',
    );
  });

  it('takes the region from the key', () => {
    const key = 'AK|SK|eu-central-1';
    expect(requestOf(false, 'anthropic.claude-v2', { key }).req.origin).toBe(
      'https://bedrock-runtime.eu-central-1.amazonaws.com',
    );
  });

  it('refuses a key that is not Ak|Sk|Region', () => {
    expect(() => requestOf(false, 'm', { key: 'sk-openai' })).toThrow(BedrockKeyError);
  });
});

describe('bedrockModelId', () => {
  it('maps Claude names to Bedrock ids', () => {
    expect(bedrockModelId('claude-3-haiku-20240307', 'us-west-2')).toBe(
      'anthropic.claude-3-haiku-20240307-v1:0',
    );
    expect(bedrockModelId('claude-3-5-sonnet-20241022', 'us-west-2')).toBe(
      'anthropic.claude-3-5-sonnet-20241022-v2:0',
    );
  });

  it('prefixes the geography for models served only through inference profiles', () => {
    expect(bedrockModelId('claude-sonnet-4-20250514', 'us-east-1')).toBe(
      'us.anthropic.claude-sonnet-4-20250514-v1:0',
    );
    expect(bedrockModelId('claude-3-7-sonnet-20250219', 'eu-west-3')).toBe(
      'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
    );
    expect(bedrockModelId('claude-opus-4-20250514', 'ap-northeast-1')).toBe(
      'apac.anthropic.claude-opus-4-20250514-v1:0',
    );
    expect(bedrockModelId('anthropic.claude-sonnet-4-20250514-v1:0', 'us-west-2')).toBe(
      'us.anthropic.claude-sonnet-4-20250514-v1:0',
    );
  });

  it('passes ids, inference profiles and unknown names through', () => {
    for (const id of [
      'anthropic.claude-3-5-sonnet-20240620-v1:0',
      'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-x',
      'claude-next',
    ])
      expect(bedrockModelId(id, 'us-east-1')).toBe(id);
  });

  it('encodes an ARN as one path segment', () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc';
    expect(requestOf(false, arn).req.path).toBe(`/model/${encodeURIComponent(arn)}/invoke`);
  });
});

describe('Bedrock adaptor: authorize', () => {
  it('signs with the key credentials and region for the bedrock service', async () => {
    const { req } = requestOf(false);
    const signed: ProviderRequest = await BEDROCK_ADAPTOR.authorize!(req, channel, now);
    expect(signed.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20260101\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(signed.headers['x-amz-date']).toBe('20260101T000000Z');
    expect(signed.body).toBe(req.body);
  });

  it('adds the session token of a four-part key', async () => {
    const key = `${channel.key}|SESSIONTOKEN`;
    const { req } = requestOf(false, 'm', { key });
    const signed = await BEDROCK_ADAPTOR.authorize!(req, { ...channel, key }, now);
    expect(signed.headers['x-amz-security-token']).toBe('SESSIONTOKEN');
  });
});

describe('Bedrock adaptor: errors', () => {
  it("reads Bedrock's {message} body", () => {
    expect(
      BEDROCK_ADAPTOR.error(
        403,
        '{"message":"The security token included in the request is invalid."}',
      ),
    ).toEqual({
      message: 'The security token included in the request is invalid.',
      type: 'upstream_error',
      code: '',
    });
  });

  it('falls back to the Anthropic reader for other bodies', () => {
    expect(
      BEDROCK_ADAPTOR.error(
        400,
        '{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}',
      ),
    ).toEqual({ message: 'bad', type: 'invalid_request_error', code: 'invalid_request_error' });
    expect(BEDROCK_ADAPTOR.error(502, '<html>Bad gateway</html>').message).toBe(
      '<html>Bad gateway</html>',
    );
  });
});

describe('Bedrock adaptor: answers', () => {
  it('converts the InvokeModel answer (a Messages answer) with usage', () => {
    const answer = BEDROCK_ADAPTOR.response(
      'chat',
      {
        id: 'msg_bdrk_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-3-5-sonnet-20240620',
        content: [{ type: 'text', text: 'Hello!' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 12, output_tokens: 3 },
      },
      ctx,
    );
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.body).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
    });
    expect(answer.usage).toMatchObject({ promptTokens: 12, completionTokens: 3 });
  });

  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const str = (value: string) => ({ type: 'string' as const, value });
  const chunk = (event: object) =>
    Buffer.from(
      codec.encode({
        headers: {
          ':event-type': str('chunk'),
          ':content-type': str('application/json'),
          ':message-type': str('event'),
        },
        body: Buffer.from(
          JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64') }),
        ),
      }),
    );

  /** The gateway's loop: bytes → framer → converter. */
  function convert(bytes: Buffer, pieceSize: number) {
    const framer = new AwsEventStreamFramer();
    const conv = BEDROCK_ADAPTOR.stream(ctx);
    const chunks: JsonObject[] = [];
    const feed = (events: ReturnType<AwsEventStreamFramer['push']>) => {
      for (const event of events) {
        const data = eventObject(event);
        if (data) chunks.push(...conv.event(data, event.name));
      }
    };
    for (let i = 0; i < bytes.length; i += pieceSize)
      feed(framer.push(bytes.subarray(i, i + pieceSize)));
    feed(framer.end());
    chunks.push(...conv.end());
    return { chunks, conv };
  }

  it('converts a Bedrock event stream into OpenAI chunks with usage', () => {
    const bytes = Buffer.concat(
      [
        {
          type: 'message_start',
          message: {
            id: 'msg_bdrk_1',
            type: 'message',
            role: 'assistant',
            content: [],
            usage: { input_tokens: 20, cache_read_input_tokens: 5, output_tokens: 1 },
          },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
        {
          type: 'message_stop',
          'amazon-bedrock-invocationMetrics': { inputTokenCount: 25, outputTokenCount: 2 },
        },
      ].map(chunk),
    );
    for (const size of [bytes.length, 13]) {
      const { chunks, conv } = convert(bytes, size);
      const content = chunks
        .flatMap((c) => (c.choices as JsonObject[]).map((choice) => choice.delta as JsonObject))
        .map((d) => d.content)
        .filter((t) => typeof t === 'string')
        .join('');
      expect(content).toBe('Hello');
      const finish = chunks.flatMap((c) => (c.choices as JsonObject[]).map((x) => x.finish_reason));
      expect(finish).toContain('stop');
      expect(chunks[chunks.length - 1]).toMatchObject({
        object: 'chat.completion.chunk',
        choices: [],
        usage: { prompt_tokens: 25, completion_tokens: 2, total_tokens: 27 },
      });
      expect(conv.usage()).toMatchObject({
        promptTokens: 25,
        completionTokens: 2,
        cachedTokens: 5,
      });
      expect(conv.failure()).toBeUndefined();
    }
  });

  it('reports an in-stream Bedrock exception as the stream failure', () => {
    const exception = Buffer.from(
      codec.encode({
        headers: {
          ':exception-type': str('throttlingException'),
          ':content-type': str('application/json'),
          ':message-type': str('exception'),
        },
        body: Buffer.from('{"message":"Too many requests, please wait before trying again."}'),
      }),
    );
    const { conv } = convert(exception, exception.length);
    expect(conv.failure()?.info).toEqual({
      message: 'Too many requests, please wait before trying again.',
      type: 'throttlingException',
      code: 'throttlingException',
    });
  });
});
