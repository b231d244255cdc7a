import type { JsonObject } from '../../openai/request-body';
import { SseFramer } from '../framing';
import { TENCENT_ADAPTOR } from './tencent-adaptor';
import { TencentKeyError, parseTencentKey } from './tencent-key';
import { tc3Authorization } from './tencent-signing';
import { bodyOf, convertStream, deltas, wireChannel } from '../testing-fixtures';

const channel = (key = '1300000000|AKIDtest|secret-key', baseUrl = '', other = '') =>
  wireChannel(23, { baseUrl, key, other });
const ctx = { id: 'chatcmpl-r1', model: 'hunyuan-lite', created: 1700000000 };
const NOW = new Date(1715158600 * 1000);

describe('parseTencentKey', () => {
  it('splits AppId|SecretId|SecretKey', () => {
    expect(parseTencentKey(' 1300000000 | AKID | sk ')).toEqual({
      appId: '1300000000',
      secretId: 'AKID',
      secretKey: 'sk',
    });
  });

  it('names the wrong part without echoing the key', () => {
    expect(() => parseTencentKey('AKID|sk')).toThrow(TencentKeyError);
    expect(() => parseTencentKey('AKID|sk')).toThrow('got 2 part(s)');
    expect(() => parseTencentKey('app|AKID|sk')).toThrow('the AppId must be a number');
    expect(() => parseTencentKey('1||sk')).toThrow('the SecretId is empty');
    expect(() => parseTencentKey('1|AKID|')).toThrow('the SecretKey is empty');
  });
});

describe('TENCENT_ADAPTOR.request', () => {
  it('posts a signed ChatCompletions call with the X-TC headers and a PascalCase body', () => {
    const req = TENCENT_ADAPTOR.request(
      'chat',
      {
        messages: [
          { role: 'developer', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: '你好' }] },
          { role: 'tool', tool_call_id: 'call_1', content: '晴' },
        ],
        temperature: 0.5,
        top_p: 0.9,
      },
      channel(),
      'hunyuan-lite',
      false,
      NOW,
    );
    expect([req.method, req.origin, req.path]).toEqual([
      'POST',
      'https://hunyuan.tencentcloudapi.com',
      '/',
    ]);
    expect(bodyOf(req.body)).toEqual({
      Model: 'hunyuan-lite',
      Messages: [
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: '你好' },
        { Role: 'tool', Content: '晴', ToolCallId: 'call_1' },
      ],
      Stream: false,
      Temperature: 0.5,
      TopP: 0.9,
    });
    const { authorization, ...rest } = req.headers;
    expect(rest).toEqual({
      'content-type': 'application/json',
      host: 'hunyuan.tencentcloudapi.com',
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': '2023-09-01',
      'x-tc-timestamp': '1715158600',
    });
    expect(authorization).toBe(
      tc3Authorization({
        secretId: 'AKIDtest',
        secretKey: 'secret-key',
        service: 'hunyuan',
        host: 'hunyuan.tencentcloudapi.com',
        contentType: 'application/json',
        payload: req.body,
        timestamp: 1715158600,
      }),
    );
    expect(authorization).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKIDtest\/2024-05-08\/hunyuan\/tc3_request, /,
    );
  });

  it('signs the base URL host, streams, and sends a region given in other', () => {
    const req = TENCENT_ADAPTOR.request(
      'chat',
      { messages: [] },
      channel(undefined, 'http://127.0.0.1:9/', 'ap-guangzhou'),
      'hunyuan-turbo',
      true,
      NOW,
    );
    expect(req.origin).toBe('http://127.0.0.1:9');
    expect(req.headers.host).toBe('127.0.0.1:9');
    expect(req.headers['x-tc-region']).toBe('ap-guangzhou');
    expect(req.headers.accept).toBe('text/event-stream');
    expect(bodyOf(req.body).Stream).toBe(true);
  });

  it('throws the key error for a malformed key', () => {
    expect(() =>
      TENCENT_ADAPTOR.request('chat', { messages: [] }, channel('nope'), 'm', false, NOW),
    ).toThrow(TencentKeyError);
  });
});

describe('TENCENT_ADAPTOR.response', () => {
  it('converts the documented answer with its usage', () => {
    expect(
      TENCENT_ADAPTOR.response(
        'chat',
        {
          Response: {
            RequestId: 'e4b12e4a-d30d-4ff6-8b5e-0c8d6e1e6e4d',
            Note: '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记',
            Choices: [
              {
                Message: { Role: 'assistant', Content: '您好！我是腾讯混元大模型。' },
                FinishReason: 'stop',
              },
            ],
            Created: 1715158600,
            Id: 'e4b12e4a-d30d-4ff6-8b5e-0c8d6e1e6e4d',
            Usage: { PromptTokens: 3, CompletionTokens: 14, TotalTokens: 17 },
          },
        },
        ctx,
      ),
    ).toEqual({
      ok: true,
      body: {
        id: 'chatcmpl-r1',
        object: 'chat.completion',
        created: 1700000000,
        model: 'hunyuan-lite',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: '您好！我是腾讯混元大模型。' },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 14, total_tokens: 17 },
      },
      usage: { promptTokens: 3, completionTokens: 14, cachedTokens: 0 },
    });
  });

  it('finds Response.Error in a 200 body and types it by code family', () => {
    expect(
      TENCENT_ADAPTOR.response(
        'chat',
        {
          Response: {
            Error: {
              Code: 'AuthFailure.SignatureFailure',
              Message: 'The provided credentials could not be validated.',
            },
            RequestId: 'r',
          },
        },
        ctx,
      ),
    ).toEqual({
      ok: false,
      failure: {
        status: 401,
        info: {
          message: 'The provided credentials could not be validated.',
          type: 'authentication_error',
          code: 'AuthFailure.SignatureFailure',
        },
      },
    });
    const limited = TENCENT_ADAPTOR.response(
      'chat',
      { Response: { Error: { Code: 'LimitExceeded', Message: 'qps' } } },
      ctx,
    );
    expect(!limited.ok && limited.failure.status).toBe(429);
    const arrears = TENCENT_ADAPTOR.response(
      'chat',
      { Response: { Error: { Code: 'ResourceInsufficient.ChargeResourceExhaust', Message: 'x' } } },
      ctx,
    );
    expect(!arrears.ok && arrears.failure.info.type).toBe('insufficient_quota');
  });
});

describe('TENCENT_ADAPTOR.stream', () => {
  const feed = (lines: object[]) => {
    const converter = TENCENT_ADAPTOR.stream(ctx);
    return {
      converter,
      chunks: convertStream(
        converter,
        new SseFramer(),
        lines.map((l) => `data: ${JSON.stringify(l)}\n\n`).join(''),
        45,
      ),
    };
  };
  const event = (content: string, finish: string, completion: number) => ({
    Note: '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记',
    Choices: [{ Delta: { Role: 'assistant', Content: content }, FinishReason: finish }],
    Created: 1715158600,
    Id: 'a4cf5d2c',
    Usage: { PromptTokens: 3, CompletionTokens: completion, TotalTokens: 3 + completion },
  });

  it('converts the documented stream, usage from the last event', () => {
    const { converter, chunks } = feed([
      event('计算', '', 1),
      event('结果是2。', '', 5),
      event('', 'stop', 6),
    ]);
    expect(deltas(chunks)).toEqual([
      { role: 'assistant', content: '' },
      { content: '计算' },
      { content: '结果是2。' },
      {},
      { usage: { prompt_tokens: 3, completion_tokens: 6, total_tokens: 9 } },
    ]);
    expect((chunks[3]!.choices as JsonObject[])[0]!.finish_reason).toBe('stop');
    expect(converter.usage()).toEqual({ promptTokens: 3, completionTokens: 6, cachedTokens: 0 });
  });

  it('maps a moderation stop to content_filter and reports an error event as the failure', () => {
    const blocked = feed([event('部分', 'sensitive', 2)]);
    expect((blocked.chunks[2]!.choices as JsonObject[])[0]!.finish_reason).toBe('content_filter');
    const failed = feed([{ Response: { Error: { Code: 'InternalError', Message: 'boom' } } }]);
    expect(failed.converter.failure()).toEqual({
      status: 500,
      info: { message: 'boom', type: 'upstream_error', code: 'InternalError' },
    });
  });
});

describe('TENCENT_ADAPTOR.error', () => {
  it('reads the wrapped error body and keeps proxy text', () => {
    expect(
      TENCENT_ADAPTOR.error(
        400,
        '{"Response":{"Error":{"Code":"InvalidParameterValue.Model","Message":"模型不存在"},"RequestId":"r"}}',
      ),
    ).toEqual({
      message: '模型不存在',
      type: 'invalid_request_error',
      code: 'InvalidParameterValue.Model',
    });
    expect(TENCENT_ADAPTOR.error(503, '').message).toBe('Tencent answered HTTP 503');
  });
});

describe('TENCENT_ADAPTOR.authorize', () => {
  it('signs again over the body as it is sent (changed after request())', async () => {
    const req = TENCENT_ADAPTOR.request('chat', { messages: [] }, channel(), 'm', false, NOW);
    const changed = { ...req, body: Buffer.from('{"Model":"m","Temperature":0.2}') };
    const signed = await TENCENT_ADAPTOR.authorize!(changed, channel(), NOW);
    expect(signed.body).toBe(changed.body);
    expect(signed.headers.authorization).toBe(
      tc3Authorization({
        secretId: 'AKIDtest',
        secretKey: 'secret-key',
        service: 'hunyuan',
        host: 'hunyuan.tencentcloudapi.com',
        contentType: 'application/json',
        payload: changed.body,
        timestamp: 1715158600,
      }),
    );
    expect(signed.headers.authorization).not.toBe(req.headers.authorization);
  });
});
