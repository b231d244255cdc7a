import type { JsonObject } from '../../openai/request-body';
import { SseFramer } from '../framing';
import { BAIDU_ADAPTOR, baiduAdaptor } from './baidu-adaptor';
import { baiduEndpoint } from './baidu-request';
import { BaiduTokenCache } from './baidu-token';
import { bodyOf, convertStream, deltas, wireChannel } from '../testing-fixtures';

const channel = (key = 'ak|sk', baseUrl = '') => wireChannel(15, { baseUrl, key });
const ctx = { id: 'chatcmpl-r1', model: 'ernie-3.5-8k', created: 1700000000 };
const NOW = new Date(0);

describe('baiduEndpoint', () => {
  it('maps the documented model names and passes others through lower-cased', () => {
    expect(baiduEndpoint('ernie-4.0-8k')).toBe('completions_pro');
    expect(baiduEndpoint('ERNIE-3.5-8K')).toBe('completions');
    expect(baiduEndpoint('ernie-speed-8k')).toBe('ernie_speed');
    expect(baiduEndpoint('ernie-speed-128k')).toBe('ernie-speed-128k');
    expect(baiduEndpoint('My-Endpoint')).toBe('my-endpoint');
  });
});

describe('BAIDU_ADAPTOR.request', () => {
  it('posts to the model endpoint with system in its own member and no credentials yet', () => {
    const req = BAIDU_ADAPTOR.request(
      'chat',
      {
        messages: [
          { role: 'system', content: '你是一个助手' },
          { role: 'user', content: '你好' },
          { role: 'assistant', content: '你好！' },
          { role: 'user', content: [{ type: 'text', text: '介绍一下北京' }] },
        ],
        temperature: 0,
        top_p: 0.8,
        max_tokens: 1024,
        stop: '。',
        user: 'u-42',
      },
      channel(),
      'ernie-4.0-8k',
      false,
      NOW,
    );
    expect([req.method, req.origin, req.path]).toEqual([
      'POST',
      'https://aip.baidubce.com',
      '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro',
    ]);
    expect(req.headers).toEqual({ 'content-type': 'application/json' });
    expect(bodyOf(req.body)).toEqual({
      messages: [
        { role: 'user', content: '你好' },
        { role: 'assistant', content: '你好！' },
        { role: 'user', content: '介绍一下北京' },
      ],
      system: '你是一个助手',
      temperature: 0.01, // ERNIE refuses 0
      top_p: 0.8,
      max_output_tokens: 1024,
      stop: ['。'],
      user_id: 'u-42',
    });
  });

  it('asks for a stream in the body', () => {
    const req = BAIDU_ADAPTOR.request(
      'chat',
      { messages: [] },
      channel(),
      'ernie-speed-128k',
      true,
      NOW,
    );
    expect(req.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie-speed-128k');
    expect(bodyOf(req.body)).toEqual({ messages: [], stream: true });
    expect(req.headers.accept).toBe('text/event-stream');
  });
});

describe('baiduAdaptor.authorize', () => {
  it('appends the exchanged token to the path, exchanging at the channel base URL', async () => {
    const urls: string[] = [];
    const adaptor = baiduAdaptor(
      new BaiduTokenCache(async (url) => {
        urls.push(url);
        return {
          status: 200,
          text: async () => '{"access_token":"24.tok/en","expires_in":2592000}',
        };
      }),
    );
    const ch = channel('my-ak|my-sk', 'http://127.0.0.1:9/');
    const req = adaptor.request('chat', { messages: [] }, ch, 'ernie-3.5-8k', false, NOW);
    const signed = await adaptor.authorize!(req, ch, NOW);
    expect(signed.path).toBe(
      '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions?access_token=24.tok%2Fen',
    );
    expect(signed.body).toBe(req.body);
    expect(urls).toEqual([
      'http://127.0.0.1:9/oauth/2.0/token?grant_type=client_credentials&client_id=my-ak&client_secret=my-sk',
    ]);
  });

  it('rejects a malformed key before any exchange', async () => {
    const adaptor = baiduAdaptor(
      new BaiduTokenCache(() => Promise.reject(new Error('must not be called'))),
    );
    const req = adaptor.request('chat', { messages: [] }, channel('nopipe'), 'm', false, NOW);
    await expect(adaptor.authorize!(req, channel('nopipe'), NOW)).rejects.toThrow(
      'Baidu key must be "API_KEY|SECRET_KEY"',
    );
  });
});

describe('BAIDU_ADAPTOR.response', () => {
  it('converts the documented answer with its usage', () => {
    expect(
      BAIDU_ADAPTOR.response(
        'chat',
        {
          id: 'as-bcmt5ct4iy',
          object: 'chat.completion',
          created: 1680167072,
          result: '您好，我是百度研发的知识增强大语言模型，中文名是文心一言。',
          is_truncated: false,
          need_clear_history: false,
          usage: { prompt_tokens: 4, completion_tokens: 24, total_tokens: 28 },
        },
        ctx,
      ),
    ).toEqual({
      ok: true,
      body: {
        id: 'chatcmpl-r1',
        object: 'chat.completion',
        created: 1700000000,
        model: 'ernie-3.5-8k',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: '您好，我是百度研发的知识增强大语言模型，中文名是文心一言。',
            },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 4, completion_tokens: 24, total_tokens: 28 },
      },
      usage: { promptTokens: 4, completionTokens: 24, cachedTokens: 0 },
    });
  });

  it('finds an error in a 200 body and types it by code', () => {
    expect(
      BAIDU_ADAPTOR.response(
        'chat',
        { error_code: 110, error_msg: 'Access token invalid or no longer valid' },
        ctx,
      ),
    ).toEqual({
      ok: false,
      failure: {
        status: 401,
        info: {
          message: 'Access token invalid or no longer valid',
          type: 'authentication_error',
          code: '110',
        },
      },
    });
    const qps = BAIDU_ADAPTOR.response(
      'chat',
      { error_code: 18, error_msg: 'Open api qps request limit reached' },
      ctx,
    );
    expect(!qps.ok && qps.failure.status).toBe(429);
    const bad = BAIDU_ADAPTOR.response(
      'chat',
      { error_code: 336003, error_msg: 'the role of first message must be user' },
      ctx,
    );
    expect(!bad.ok && bad.failure.info.type).toBe('invalid_request_error');
  });

  it('marks a blocked answer (need_clear_history) as content_filter and length as length', () => {
    const blocked = BAIDU_ADAPTOR.response(
      'chat',
      { result: '', need_clear_history: true, ban_round: -1 },
      ctx,
    );
    expect(blocked.ok && (blocked.body.choices as JsonObject[])[0]!.finish_reason).toBe(
      'content_filter',
    );
    const cut = BAIDU_ADAPTOR.response('chat', { result: 'x', finish_reason: 'length' }, ctx);
    expect(cut.ok && (cut.body.choices as JsonObject[])[0]!.finish_reason).toBe('length');
  });
});

describe('BAIDU_ADAPTOR.stream', () => {
  const feed = (raw: string) => {
    const converter = BAIDU_ADAPTOR.stream(ctx);
    return { converter, chunks: convertStream(converter, new SseFramer(), raw, 61) };
  };

  it('converts the documented stream, usage from the last event', () => {
    const { converter, chunks } = feed(
      [
        'data: {"id":"as-vb0m37ti8y","object":"chat.completion","created":1709089502,"sentence_id":0,"is_end":false,"is_truncated":false,"result":"当然可以，","need_clear_history":false,"finish_reason":"normal","usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}',
        '',
        'data: {"id":"as-vb0m37ti8y","object":"chat.completion","created":1709089504,"sentence_id":1,"is_end":false,"is_truncated":false,"result":"以下是一些建议。","need_clear_history":false,"finish_reason":"normal","usage":{"prompt_tokens":5,"completion_tokens":10,"total_tokens":15}}',
        '',
        'data: {"id":"as-vb0m37ti8y","object":"chat.completion","created":1709089507,"sentence_id":2,"is_end":true,"is_truncated":false,"result":"","need_clear_history":false,"finish_reason":"normal","usage":{"prompt_tokens":5,"completion_tokens":45,"total_tokens":50}}',
        '',
      ].join('\n'),
    );
    expect(deltas(chunks)).toEqual([
      { role: 'assistant', content: '' },
      { content: '当然可以，' },
      { content: '以下是一些建议。' },
      {},
      { usage: { prompt_tokens: 5, completion_tokens: 45, total_tokens: 50 } },
    ]);
    expect((chunks[3]!.choices as JsonObject[])[0]!.finish_reason).toBe('stop');
    expect(converter.usage()).toEqual({ promptTokens: 5, completionTokens: 45, cachedTokens: 0 });
  });

  it('reports an error object in the stream as the failure', () => {
    const { converter, chunks } = feed(
      'data: {"error_code":336100,"error_msg":"try again later"}\n\n',
    );
    expect(chunks).toEqual([]);
    expect(converter.failure()).toEqual({
      status: 500,
      info: { message: 'try again later', type: 'upstream_error', code: '336100' },
    });
  });
});

describe('BAIDU_ADAPTOR.error', () => {
  it('reads Baidu and OAuth error bodies', () => {
    expect(
      BAIDU_ADAPTOR.error(
        200,
        '{"error_code":17,"error_msg":"Open api daily request limit reached"}',
      ),
    ).toEqual({
      message: 'Open api daily request limit reached',
      type: 'rate_limit_error',
      code: '17',
    });
    expect(
      BAIDU_ADAPTOR.error(
        401,
        '{"error":"invalid_client","error_description":"unknown client id"}',
      ),
    ).toEqual({
      message: 'unknown client id',
      type: 'authentication_error',
      code: 'invalid_client',
    });
    expect(BAIDU_ADAPTOR.error(502, '').message).toBe('Baidu answered HTTP 502');
  });
});
