import type { JsonObject } from '../../openai/request-body';
import { SseFramer } from '../framing';
import { bodyOf, convertStream, deltas, wireChannel } from '../testing-fixtures';
import { ALI_ADAPTOR } from './ali-adaptor';

const channel = (baseUrl = '') => wireChannel(17, { baseUrl, key: 'sk-ali' });
const ctx = { id: 'chatcmpl-r1', model: 'qwen-plus', created: 1700000000 };
const NOW = new Date(0);

describe('ALI_ADAPTOR.request', () => {
  it('posts the native generation body to DashScope with a Bearer key', () => {
    const req = ALI_ADAPTOR.request(
      'chat',
      {
        model: 'qwen',
        messages: [
          { role: 'developer', content: 'You are a helpful assistant.' },
          { role: 'user', content: [{ type: 'text', text: '你是谁？' }] },
        ],
        max_tokens: 100,
        temperature: 0.7,
        top_p: 0.8,
        stop: 'END',
        seed: 7,
      },
      channel(),
      'qwen-plus',
      false,
      NOW,
    );
    expect([req.method, req.origin, req.path]).toEqual([
      'POST',
      'https://dashscope.aliyuncs.com',
      '/api/v1/services/aigc/text-generation/generation',
    ]);
    expect(req.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer sk-ali',
    });
    expect(bodyOf(req.body)).toEqual({
      model: 'qwen-plus',
      input: {
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: '你是谁？' },
        ],
      },
      parameters: {
        result_format: 'message',
        max_tokens: 100,
        temperature: 0.7,
        top_p: 0.8,
        seed: 7,
        stop: ['END'],
      },
    });
  });

  it('asks for SSE with the X-DashScope-SSE header and incremental output', () => {
    const req = ALI_ADAPTOR.request(
      'chat',
      { messages: [{ role: 'user', content: 'hi' }], stream: true },
      channel('http://127.0.0.1:9/'),
      'qwen-turbo',
      true,
      NOW,
    );
    expect(req.origin).toBe('http://127.0.0.1:9');
    expect(req.headers['x-dashscope-sse']).toBe('enable');
    expect(req.headers.accept).toBe('text/event-stream');
    const body = bodyOf(req.body);
    expect(body.stream).toBeUndefined();
    expect(body.parameters).toEqual({ result_format: 'message', incremental_output: true });
  });

  it('keeps tools, assistant tool calls and tool results in OpenAI shape', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: {} } }];
    const call = {
      id: 'call_1',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"杭州"}' },
    };
    const body = bodyOf(
      ALI_ADAPTOR.request(
        'chat',
        {
          messages: [
            { role: 'user', content: '杭州天气？' },
            { role: 'assistant', content: null, tool_calls: [call] },
            { role: 'tool', tool_call_id: 'call_1', name: 'get_weather', content: '晴' },
          ],
          tools,
        },
        channel(),
        'qwen-plus',
        false,
        NOW,
      ).body,
    );
    expect((body.input as JsonObject).messages).toEqual([
      { role: 'user', content: '杭州天气？' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', content: '晴', tool_call_id: 'call_1', name: 'get_weather' },
    ]);
    expect((body.parameters as JsonObject).tools).toEqual(tools);
  });

  it('refuses an endpoint it does not convert', () => {
    expect(() => ALI_ADAPTOR.request('embeddings', {}, channel(), 'm', false, NOW)).toThrow(
      /embeddings/,
    );
  });
});

describe('ALI_ADAPTOR.response', () => {
  it('converts the documented result_format=message answer', () => {
    const answer = ALI_ADAPTOR.response(
      'chat',
      {
        output: {
          choices: [
            {
              finish_reason: 'stop',
              message: {
                role: 'assistant',
                content: '我是阿里云开发的一款超大规模语言模型，我叫通义千问。',
              },
            },
          ],
        },
        usage: { total_tokens: 38, output_tokens: 16, input_tokens: 22 },
        request_id: '09dceb20-ae2e-999b-85f9-c5ab266198c0',
      },
      ctx,
    );
    expect(answer).toEqual({
      ok: true,
      body: {
        id: 'chatcmpl-r1',
        object: 'chat.completion',
        created: 1700000000,
        model: 'qwen-plus',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: '我是阿里云开发的一款超大规模语言模型，我叫通义千问。',
            },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 22, completion_tokens: 16, total_tokens: 38 },
      },
      usage: { promptTokens: 22, completionTokens: 16, cachedTokens: 0 },
    });
  });

  it('reads cached tokens, reasoning and tool calls', () => {
    const answer = ALI_ADAPTOR.response(
      'chat',
      {
        output: {
          choices: [
            {
              finish_reason: 'tool_calls',
              message: {
                role: 'assistant',
                content: '',
                reasoning_content: '需要查天气',
                tool_calls: [
                  {
                    id: 'call_6596dafa2a6a46f7a217da',
                    type: 'function',
                    index: 0,
                    function: { name: 'get_current_weather', arguments: '{"location":"杭州"}' },
                  },
                ],
              },
            },
          ],
        },
        usage: {
          input_tokens: 1200,
          output_tokens: 30,
          prompt_tokens_details: { cached_tokens: 1024 },
        },
      },
      ctx,
    );
    if (!answer.ok) throw new Error('expected ok');
    expect(answer.usage).toEqual({ promptTokens: 1200, completionTokens: 30, cachedTokens: 1024 });
    const choice = (answer.body.choices as JsonObject[])[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message).toEqual({
      role: 'assistant',
      content: '',
      reasoning_content: '需要查天气',
      tool_calls: [
        {
          id: 'call_6596dafa2a6a46f7a217da',
          type: 'function',
          function: { name: 'get_current_weather', arguments: '{"location":"杭州"}' },
        },
      ],
    });
    expect(answer.body.usage).toMatchObject({ prompt_tokens_details: { cached_tokens: 1024 } });
  });

  it('turns a {code, message} body into a typed failure', () => {
    expect(
      ALI_ADAPTOR.response(
        'chat',
        {
          code: 'Arrearage',
          message: 'Access denied, please make sure your account is in good standing.',
          request_id: 'r',
        },
        ctx,
      ),
    ).toEqual({
      ok: false,
      failure: {
        status: 402,
        info: {
          message: 'Access denied, please make sure your account is in good standing.',
          type: 'insufficient_quota',
          code: 'Arrearage',
        },
      },
    });
  });
});

describe('ALI_ADAPTOR.stream', () => {
  const feed = (raw: string) => {
    const converter = ALI_ADAPTOR.stream(ctx);
    return { converter, chunks: convertStream(converter, new SseFramer(), raw, 50) };
  };

  it('converts the documented incremental stream, usage from the last event', () => {
    const { converter, chunks } = feed(
      [
        'id:1',
        'event:result',
        ':HTTP_STATUS/200',
        'data:{"output":{"choices":[{"message":{"content":"我是","role":"assistant"},"finish_reason":"null"}]},"usage":{"total_tokens":23,"input_tokens":22,"output_tokens":1},"request_id":"x"}',
        '',
        'id:2',
        'event:result',
        ':HTTP_STATUS/200',
        'data:{"output":{"choices":[{"message":{"content":"通义千问","role":"assistant"},"finish_reason":"null"}]},"usage":{"total_tokens":26,"input_tokens":22,"output_tokens":4},"request_id":"x"}',
        '',
        'id:3',
        'event:result',
        ':HTTP_STATUS/200',
        'data:{"output":{"choices":[{"message":{"content":"","role":"assistant"},"finish_reason":"stop"}]},"usage":{"total_tokens":38,"input_tokens":22,"output_tokens":16},"request_id":"x"}',
        '',
      ].join('\n'),
    );
    expect(deltas(chunks)).toEqual([
      { role: 'assistant', content: '' },
      { content: '我是' },
      { content: '通义千问' },
      {},
      { usage: { prompt_tokens: 22, completion_tokens: 16, total_tokens: 38 } },
    ]);
    expect((chunks[3]!.choices as JsonObject[])[0]!.finish_reason).toBe('stop');
    expect(converter.usage()).toEqual({ promptTokens: 22, completionTokens: 16, cachedTokens: 0 });
  });

  it('reports an error event as the failure', () => {
    const { converter, chunks } = feed(
      'id:1\nevent:error\n:HTTP_STATUS/400\ndata:{"code":"InvalidParameter","message":"Range of input length should be [1, 6000]","request_id":"r"}\n\n',
    );
    expect(chunks).toEqual([]);
    expect(converter.failure()).toEqual({
      status: 400,
      info: {
        message: 'Range of input length should be [1, 6000]',
        type: 'invalid_request_error',
        code: 'InvalidParameter',
      },
    });
  });
});

describe('ALI_ADAPTOR.error', () => {
  it('reads {code, message} and types it', () => {
    expect(
      ALI_ADAPTOR.error(
        401,
        '{"code":"InvalidApiKey","message":"Invalid API-key provided.","request_id":"r"}',
      ),
    ).toEqual({
      message: 'Invalid API-key provided.',
      type: 'authentication_error',
      code: 'InvalidApiKey',
    });
    expect(
      ALI_ADAPTOR.error(
        429,
        '{"code":"Throttling.RateQuota","message":"Requests rate limit exceeded"}',
      ),
    ).toMatchObject({ type: 'rate_limit_error', code: 'Throttling.RateQuota' });
    expect(ALI_ADAPTOR.error(502, '')).toEqual({
      message: 'DashScope answered HTTP 502',
      type: 'upstream_error',
      code: '',
    });
  });
});
