/**
 * How every channel type is relayed for chat (one-api's 0–41 and new-api's
 * 42–57). docs/providers.md mirrors this table: change both together.
 */
import { upstreamTarget, type WireChannel } from '../openai/openai-wire';
import { channelProtocol } from './registry';

type Expected =
  /** The OpenAI wire: bytes pass through; `path` is where chat goes under the base URL. */
  | { readonly kind: 'openai'; readonly path: string }
  /** A converting adaptor, by name. */
  | { readonly kind: 'adaptor'; readonly name: string }
  /** No chat relay: `why` is what the doc says. */
  | { readonly kind: 'unsupported'; readonly why: string };

const V1 = { kind: 'openai', path: '/v1/chat/completions' } as const;
const TASK = { kind: 'unsupported', why: 'task relay, not chat' } as const;
const NONE = { kind: 'unsupported', why: 'not a type in new-api' } as const;

const EXPECTED: Readonly<Record<number, readonly [string, Expected]>> = {
  0: ['Unknown', NONE],
  1: ['OpenAI', V1],
  2: ['Midjourney Proxy', TASK],
  3: [
    'Azure OpenAI',
    {
      kind: 'openai',
      path: '/openai/deployments/m/chat/completions?api-version=2024-12-01-preview',
    },
  ],
  4: ['Ollama', { kind: 'adaptor', name: 'ollama' }],
  5: ['Midjourney Proxy Plus', TASK],
  6: ['OpenAIMax', V1],
  7: ['OhMyGPT', V1],
  8: ['Custom', { kind: 'openai', path: '/custom/m' }],
  9: ['AILS', V1],
  10: ['AI Proxy', V1],
  11: ['PaLM2', { kind: 'unsupported', why: 'retired API, dropped by one-api and new-api' }],
  12: ['API2GPT', V1],
  13: ['AIGC2D', V1],
  14: ['Anthropic Claude', { kind: 'adaptor', name: 'anthropic' }],
  15: ['Baidu', { kind: 'adaptor', name: 'baidu' }],
  16: ['Zhipu ChatGLM (v3)', { kind: 'adaptor', name: 'zhipu' }],
  17: ['Alibaba Qwen', { kind: 'adaptor', name: 'ali' }],
  18: ['Xunfei Spark', V1],
  19: ['360', V1],
  20: ['OpenRouter', V1],
  21: ['AI Proxy (knowledge base)', { kind: 'unsupported', why: 'no adaptor in new-api' }],
  22: ['FastGPT', V1],
  23: ['Tencent Hunyuan', { kind: 'adaptor', name: 'tencent' }],
  24: ['Google Gemini', { kind: 'adaptor', name: 'gemini' }],
  25: ['Moonshot', V1],
  26: ['Zhipu GLM-4V', { kind: 'openai', path: '/api/paas/v4/chat/completions' }],
  27: ['Perplexity', { kind: 'openai', path: '/chat/completions' }],
  28: ['(unused)', NONE],
  29: ['(unused)', NONE],
  30: ['(unused)', NONE],
  31: ['01.AI', V1],
  32: ['(unused)', NONE],
  33: ['AWS Claude', { kind: 'adaptor', name: 'aws-claude' }],
  34: ['Cohere', { kind: 'adaptor', name: 'cohere' }],
  35: ['MiniMax', { kind: 'openai', path: '/v1/text/chatcompletion_v2' }],
  36: ['Suno', TASK],
  37: ['Dify', { kind: 'adaptor', name: 'dify' }],
  38: ['Jina', V1],
  39: ['Cloudflare', { kind: 'openai', path: '/client/v4/accounts/acc-1/ai/v1/chat/completions' }],
  40: ['SiliconCloud', V1],
  41: ['Vertex AI', { kind: 'adaptor', name: 'vertex-ai' }],
  42: ['Mistral', V1],
  43: ['DeepSeek', V1],
  44: ['MokaAI', { kind: 'unsupported', why: 'embeddings-only converter, not built' }],
  45: ['VolcEngine', { kind: 'openai', path: '/api/v3/chat/completions' }],
  46: ['Baidu v2 (Qianfan)', { kind: 'openai', path: '/v2/chat/completions' }],
  47: ['Xinference', V1],
  48: ['xAI', V1],
  49: ['Coze', { kind: 'unsupported', why: 'converter not built' }],
  50: ['Kling', TASK],
  51: ['Jimeng', TASK],
  52: ['Vidu', TASK],
  53: ['Submodel', V1],
  54: ['Doubao Video', TASK],
  55: ['Sora', TASK],
  56: ['Replicate', { kind: 'unsupported', why: 'converter not built' }],
  57: ['Codex', { kind: 'unsupported', why: 'ChatGPT-account OAuth, not built' }],
};

const channel = (type: number): WireChannel => ({
  type,
  baseUrl: type === 8 ? 'https://upstream.test/custom/{model}' : 'https://upstream.test',
  key: 'k',
  other: type === 39 ? 'acc-1' : '',
  openaiOrganization: '',
  modelMapping: {},
});

describe('channel types for chat', () => {
  it('covers 0–57', () => {
    expect(Object.keys(EXPECTED).map(Number)).toEqual([...Array(58).keys()]);
  });

  for (const [type, [name, expected]] of Object.entries(EXPECTED).map(
    ([t, e]) => [Number(t), e] as const,
  )) {
    const what =
      expected.kind === 'openai'
        ? `OpenAI wire at ${expected.path}`
        : expected.kind === 'adaptor'
          ? `adaptor ${expected.name}`
          : `unsupported (${expected.why})`;
    const title = `${type} ${name}: ${what}`;
    it(title, () => {
      const protocol = channelProtocol(type);
      expect(protocol.kind).toBe(expected.kind);
      if (expected.kind === 'adaptor' && protocol.kind === 'adaptor') {
        expect(protocol.adaptor.name).toBe(expected.name);
      }
      if (expected.kind === 'openai') {
        const target = upstreamTarget(channel(type), 'chat', 'm', 'application/json', false);
        expect(target.origin).toBe('https://upstream.test');
        expect(target.path).toBe(expected.path);
      }
    });
  }
});
