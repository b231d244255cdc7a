import {
  AZURE_DEFAULT_API_VERSION,
  reportsStreamUsage,
  speaksOpenAiWire,
  upstreamModelName,
  upstreamTarget,
  type WireChannel,
} from './openai-wire';

const channel = (over: Partial<WireChannel>): WireChannel => ({
  type: 1,
  baseUrl: 'https://api.openai.com',
  key: 'sk-upstream',
  other: '',
  openaiOrganization: '',
  modelMapping: {},
  ...over,
});

describe('upstreamTarget', () => {
  it('OpenAI: /v1 path, bearer key, organization header', () => {
    const t = upstreamTarget(
      channel({ openaiOrganization: 'org-1' }),
      'chat',
      'gpt-4o',
      'application/json',
      true,
    );
    expect(t).toEqual({
      origin: 'https://api.openai.com',
      path: '/v1/chat/completions',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: 'Bearer sk-upstream',
        'openai-organization': 'org-1',
      },
    });
  });

  it('keeps a base URL path prefix and drops trailing slashes', () => {
    const t = upstreamTarget(
      channel({ type: 7, baseUrl: 'http://127.0.0.1:9000/proxy/' }),
      'embeddings',
      'm',
      'application/json',
      false,
    );
    expect(t.origin).toBe('http://127.0.0.1:9000');
    expect(t.path).toBe('/proxy/v1/embeddings');
  });

  it('Custom (8): the base URL is the endpoint with {model} substituted', () => {
    const t = upstreamTarget(
      channel({ type: 8, baseUrl: 'https://gw.example.com/models/{model}/chat?x=1' }),
      'chat',
      'llama 3',
      'application/json',
      false,
    );
    expect(t.origin).toBe('https://gw.example.com');
    expect(t.path).toBe('/models/llama%203/chat?x=1');
    expect(t.headers.authorization).toBe('Bearer sk-upstream');
  });

  it('Azure (3): deployment without dots, api-version from other, api-key header', () => {
    const t = upstreamTarget(
      channel({ type: 3, baseUrl: 'https://res.openai.azure.com', other: '2024-06-01' }),
      'chat',
      'gpt-3.5-turbo',
      'application/json',
      false,
    );
    expect(t.path).toBe('/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-06-01');
    expect(t.headers['api-key']).toBe('sk-upstream');
    expect(t.headers.authorization).toBeUndefined();
  });

  it('Azure: default api-version, or the one in a JSON other', () => {
    const base = { type: 3, baseUrl: 'https://res.openai.azure.com' };
    expect(upstreamTarget(channel(base), 'embeddings', 'e', 'application/json', false).path).toBe(
      `/openai/deployments/e/embeddings?api-version=${AZURE_DEFAULT_API_VERSION}`,
    );
    expect(
      upstreamTarget(
        channel({ ...base, other: '{"api_version":"2025-01-01"}' }),
        'audioTranscriptions',
        'whisper',
        'multipart/form-data; boundary=x',
        false,
      ).path,
    ).toBe('/openai/deployments/whisper/audio/transcriptions?api-version=2025-01-01');
  });

  it.each([
    [26, 'https://open.bigmodel.cn', '/api/paas/v4/chat/completions'],
    [45, 'https://ark.cn-beijing.volces.com', '/api/v3/chat/completions'],
    [46, 'https://qianfan.baidubce.com', '/v2/chat/completions'],
    [27, 'https://api.perplexity.ai', '/chat/completions'],
    [35, 'https://api.minimax.chat', '/v1/text/chatcompletion_v2'],
    [43, 'https://api.deepseek.com', '/v1/chat/completions'],
  ])('type %i uses its provider path', (type, baseUrl, path) => {
    expect(
      upstreamTarget(channel({ type, baseUrl }), 'chat', 'm', 'application/json', false).path,
    ).toBe(path);
  });

  it('Cloudflare (39): the account id from other in the path, bearer key', () => {
    const cf = channel({ type: 39, baseUrl: 'https://api.cloudflare.com/', other: ' acc123 ' });
    const chat = upstreamTarget(
      cf,
      'chat',
      '@cf/meta/llama-3.1-8b-instruct',
      'application/json',
      true,
    );
    expect(chat).toEqual({
      origin: 'https://api.cloudflare.com',
      path: '/client/v4/accounts/acc123/ai/v1/chat/completions',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: 'Bearer sk-upstream',
      },
    });
    expect(upstreamTarget(cf, 'embeddings', 'e', 'application/json', false).path).toBe(
      '/client/v4/accounts/acc123/ai/v1/embeddings',
    );
  });

  it('Cloudflare: an empty account id is a clear error of the channel', () => {
    const cf = channel({ type: 39, baseUrl: 'https://api.cloudflare.com', other: '  ' });
    expect(() => upstreamTarget(cf, 'chat', 'm', 'application/json', false)).toThrow(
      /Cloudflare Workers AI: the channel has no account id/,
    );
  });

  it('Xunfei Spark (18): the HTTP API with APIKey:APISecret as bearer', () => {
    const spark = channel({
      type: 18,
      baseUrl: 'https://spark-api-open.xf-yun.com',
      key: 'appid|the-secret|the-key',
    });
    const t = upstreamTarget(spark, 'chat', 'generalv3.5', 'application/json', false);
    expect(`${t.origin}${t.path}`).toBe('https://spark-api-open.xf-yun.com/v1/chat/completions');
    expect(t.headers.authorization).toBe('Bearer the-key:the-secret');
    const password = upstreamTarget(
      { ...spark, key: 'api-password' },
      'chat',
      'lite',
      'application/json',
      false,
    );
    expect(password.headers.authorization).toBe('Bearer api-password');
  });

  it('OpenRouter adds its attribution headers', () => {
    const t = upstreamTarget(
      channel({ type: 20, baseUrl: 'https://openrouter.ai/api' }),
      'chat',
      'm',
      'application/json',
      false,
    );
    expect(t.path).toBe('/api/v1/chat/completions');
    expect(t.headers['x-title']).toBe('Tollgate');
  });
});

describe('model mapping and capabilities', () => {
  it('maps a model once and ignores empty targets', () => {
    const c = channel({ modelMapping: { 'gpt-4': 'gpt-4-0613', 'gpt-4o': ' ' } });
    expect(upstreamModelName(c, 'gpt-4')).toBe('gpt-4-0613');
    expect(upstreamModelName(c, 'gpt-4o')).toBe('gpt-4o');
    expect(upstreamModelName(c, 'constructor')).toBe('constructor');
  });

  it('knows which types speak the OpenAI wire and report stream usage', () => {
    expect(speaksOpenAiWire(1)).toBe(true);
    expect(speaksOpenAiWire(14)).toBe(false); // Anthropic converts (next issue)
    expect(reportsStreamUsage(1)).toBe(true);
    expect(reportsStreamUsage(4)).toBe(false); // Ollama: counted locally
    expect(speaksOpenAiWire(39)).toBe(true);
    expect(speaksOpenAiWire(18)).toBe(true);
    // Neither documents stream_options.include_usage: their streams are counted locally.
    expect(reportsStreamUsage(39)).toBe(false);
    expect(reportsStreamUsage(18)).toBe(false);
  });
});

describe("Spark (18): one-api's and new-api's WebSocket model names reach the HTTP API by its names", () => {
  it.each([
    ['SparkDesk-v3.5', 'generalv3.5'],
    ['SparkDesk-v4.0', '4.0Ultra'],
    ['SparkDesk-v1.1', 'lite'],
    ['generalv3', 'generalv3'],
  ])('%s → %s', (model, upstream) => {
    expect(upstreamModelName(channel({ type: 18 }), model)).toBe(upstream);
  });

  it('applies after the channel mapping, and only to Spark', () => {
    const mapped = channel({ type: 18, modelMapping: { spark: 'SparkDesk-v3.5' } });
    expect(upstreamModelName(mapped, 'spark')).toBe('generalv3.5');
    expect(upstreamModelName(channel({ type: 1 }), 'SparkDesk-v3.5')).toBe('SparkDesk-v3.5');
  });
});
