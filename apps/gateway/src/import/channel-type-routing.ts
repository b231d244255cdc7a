import { channelTypeInfo } from '@tollgate/contracts';
import { channelProtocol } from '@tollgate/relay';
import type { ChannelRowNotes } from './row-notes';
import type { SourceProject } from './source-database';

/**
 * one-api's channel types (its own numbering) → new-api's, with one-api's default base URL
 * (docs/import.md, "Channels"). `to: 1` for a provider new-api has no type for, relayed as
 * OpenAI-compatible at that base URL; `to: null` for one with no counterpart at all.
 */
interface OneApiType {
  readonly name: string;
  readonly to: number | null;
  /** one-api's default base URL (used when the row has none and the meaning would be lost). */
  readonly base?: string;
  /**
   * one-api built `<base><endpoint>` itself for this type (chat only): it comes in as Custom (8),
   * whose base URL is the endpoint the relay calls as given.
   */
  readonly endpoint?: string;
}
export const ONE_API_TYPES: Readonly<Record<number, OneApiType>> = {
  0: { name: 'Unknown', to: 0 },
  1: { name: 'OpenAI', to: 1, base: 'https://api.openai.com' },
  2: { name: 'API2D', to: 1, base: 'https://oa.api2d.net' },
  3: { name: 'Azure', to: 3 },
  4: { name: 'CloseAI', to: 1, base: 'https://api.closeai-proxy.xyz' },
  5: { name: 'OpenAI-SB', to: 1, base: 'https://api.openai-sb.com' },
  6: { name: 'OpenAIMax', to: 6, base: 'https://api.openaimax.com' },
  7: { name: 'OhMyGPT', to: 7, base: 'https://api.ohmygpt.com' },
  8: { name: 'Custom', to: 8 },
  9: { name: 'Ails', to: 9, base: 'https://api.caipacity.com' },
  10: { name: 'AIProxy', to: 10, base: 'https://api.aiproxy.io' },
  11: { name: 'PaLM', to: 11 },
  12: { name: 'API2GPT', to: 12 },
  13: { name: 'AIGC2D', to: 13 },
  14: { name: 'Anthropic', to: 14 },
  15: { name: 'Baidu', to: 15 },
  16: { name: 'Zhipu', to: 16 },
  17: { name: 'Ali', to: 17 },
  18: { name: 'Xunfei', to: 18 },
  19: { name: 'AI360', to: 19, base: 'https://ai.360.cn' },
  20: { name: 'OpenRouter', to: 20 },
  21: { name: 'AIProxyLibrary', to: 21 },
  22: { name: 'FastGPT', to: 22 },
  23: { name: 'Tencent', to: 23 },
  24: { name: 'Gemini', to: 24 },
  25: { name: 'Moonshot', to: 25 },
  26: { name: 'Baichuan', to: 1, base: 'https://api.baichuan-ai.com' },
  27: { name: 'Minimax', to: 35, base: 'https://api.minimax.chat' },
  28: { name: 'Mistral', to: 42, base: 'https://api.mistral.ai' },
  29: { name: 'Groq', to: 1, base: 'https://api.groq.com/openai' },
  30: { name: 'Ollama', to: 4, base: 'http://localhost:11434' },
  31: { name: 'LingYiWanWu', to: 31 },
  32: { name: 'StepFun', to: 1, base: 'https://api.stepfun.com' },
  33: { name: 'AwsClaude', to: 33 },
  34: { name: 'Coze', to: null, base: 'https://api.coze.com' },
  35: { name: 'Cohere', to: 34 },
  36: { name: 'DeepSeek', to: 43, base: 'https://api.deepseek.com' },
  37: { name: 'Cloudflare', to: 39 },
  38: { name: 'DeepL', to: null },
  39: { name: 'TogetherAI', to: 1, base: 'https://api.together.xyz' },
  40: { name: 'Doubao', to: 45, base: 'https://ark.cn-beijing.volces.com' },
  // one-api calls <base>/chat/completions (and nothing else); OpenAI (1) would call <base>/v1/….
  41: {
    name: 'Novita',
    to: 8,
    base: 'https://api.novita.ai/v3/openai',
    endpoint: '/chat/completions',
  },
  42: { name: 'VertexAI', to: 41 },
  43: { name: 'Proxy', to: null },
  44: { name: 'SiliconFlow', to: 40, base: 'https://api.siliconflow.cn' },
  45: { name: 'XAI', to: 48, base: 'https://api.x.ai' },
  46: { name: 'Replicate', to: null },
  47: { name: 'BaiduV2', to: 46, base: 'https://qianfan.baidubce.com' },
  48: { name: 'XunfeiV2', to: 1, base: 'https://spark-api-open.xf-yun.com' },
  // one-api calls <base>/compatible-mode/v1/...: the same path under this base.
  49: { name: 'AliBailian', to: 1, base: 'https://dashscope.aliyuncs.com/compatible-mode' },
  50: { name: 'OpenAICompatible', to: 1 },
  51: { name: 'GeminiOpenAICompatible', to: 24 },
};

/** Whether Tollgate can serve a channel of this (new-api) type: the console lists it or the relay speaks it. */
export function isSupportedChannelType(type: number): boolean {
  return channelTypeInfo(type) !== undefined || channelProtocol(type).kind !== 'unsupported';
}

/** The channel type a row comes in as, and what its source type implied beyond the number. */
export interface RoutedType {
  readonly type: number;
  /** The source's default base URL for the type, written in when the row has none ('' = none). */
  readonly fillBase: string;
  /** The path one-api appended to the base URL itself (Custom channels, chat only; '' = none). */
  readonly endpoint: string;
}

/**
 * The row's type as a new-api type Tollgate serves: one-api's numbering translated (a new-api
 * row keeps its number), and a type nobody serves noted as a reason to come in disabled.
 */
export function routeChannelType(
  project: SourceProject,
  sourceType: number,
  notes: ChannelRowNotes,
): RoutedType {
  const routed: RoutedType =
    project === 'one-api'
      ? fromOneApiType(sourceType, notes)
      : { type: sourceType, fillBase: '', endpoint: '' };
  if (!isSupportedChannelType(routed.type) && notes.disable.length === 0)
    notes.disable.push(`type ${routed.type} is not supported by Tollgate`);
  return routed;
}

function fromOneApiType(sourceType: number, notes: ChannelRowNotes): RoutedType {
  const known = ONE_API_TYPES[sourceType];
  const none: RoutedType = { type: 0, fillBase: '', endpoint: '' };
  if (!known) {
    notes.disable.push(`one-api type ${sourceType} is unknown`);
    return none;
  }
  if (known.to === null) {
    notes.disable.push(`one-api type ${sourceType} (${known.name}) has no new-api counterpart`);
    return none;
  }
  const type = known.to;
  if (type !== sourceType)
    notes.changed(
      'type',
      `one-api type ${sourceType} (${known.name}) is new-api type ${type}${
        type === 1 ? ' (OpenAI-compatible)' : ''
      }${known.endpoint ? ' (Custom: the base URL is the endpoint called)' : ''}`,
    );
  return { type, fillBase: known.base ?? '', endpoint: known.endpoint ?? '' };
}
