/**
 * Channel types (new-api numbering). The console's type select, the form's key hints and defaults,
 * and the server's validation, defaults and upstream calls all read this one table.
 */

/** How the key of a channel type is written . */
export type ChannelKeyFormat =
  | 'api_key'
  | 'APIKey|SecretKey'
  | 'APPID|APISecret|APIKey'
  | 'APIKey-AppId'
  | 'AppId|SecretId|SecretKey'
  | 'Ak|Sk|Region'
  | 'json';

/** What the channel's `other` field holds for a type. */
export type ChannelOtherKind =
  'api_version' | 'spark_version' | 'knowledge_id' | 'account_id' | 'region_json' | 'plugin';

export interface ChannelTypeInfo {
  readonly value: number;
  /** Display name (one-api's and new-api's names; not translated). */
  readonly name: string;
  /** Used when the channel's base_url is empty; '' = the type has none (the admin must give one). */
  readonly defaultBaseUrl: string;
  readonly keyFormat: ChannelKeyFormat;
  /** The key is one JSON document: batch create does not split it into lines. */
  readonly jsonKey: boolean;
  /** The provider has a balance API the server can query (GET /api/channel/update_balance). */
  readonly balanceApi: boolean;
  /** The provider answers an OpenAI-style GET /v1/models (fetch models from the server). */
  readonly modelListApi: boolean;
  /** Meaning of `other` for this type, with its default when the form leaves it empty. */
  readonly other?: { readonly kind: ChannelOtherKind; readonly default?: string };
}

const t = (
  value: number,
  name: string,
  defaultBaseUrl: string,
  extra: Partial<Omit<ChannelTypeInfo, 'value' | 'name' | 'defaultBaseUrl'>> = {},
): ChannelTypeInfo => ({
  value,
  name,
  defaultBaseUrl,
  keyFormat: 'api_key',
  jsonKey: false,
  balanceApi: false,
  modelListApi: false,
  ...extra,
});

/**
 * One-api's types plus the new-api types whose providers have a balance API, so the
 * "update balance" action has something to do beyond OpenAI, and new-api's 6, 7, 9, 42, 45, 46 and
 * 48 (an imported channel of those types keeps its type, and opens, edits and saves like any other).
 */
export const CHANNEL_TYPE_TABLE: readonly ChannelTypeInfo[] = [
  t(1, 'OpenAI', 'https://api.openai.com', { balanceApi: true, modelListApi: true }),
  t(2, 'Midjourney Proxy', ''),
  t(3, 'Azure OpenAI', '', { other: { kind: 'api_version', default: '2023-06-01-preview' } }),
  t(4, 'Ollama', 'http://localhost:11434', { modelListApi: true }),
  t(5, 'Midjourney Proxy Plus', ''),
  // OpenAI-compatible resellers new-api keeps as their own types (relayed as OpenAI at their base).
  t(6, 'OpenAI Max', 'https://api.openaimax.com', { modelListApi: true }),
  t(7, 'OhMyGPT', 'https://api.ohmygpt.com', { modelListApi: true }),
  t(8, 'Custom', '', { balanceApi: true, modelListApi: true }),
  t(9, 'AILS', 'https://api.caipacity.com', { modelListApi: true }),
  t(10, 'AI Proxy', 'https://api.aiproxy.io', { balanceApi: true, modelListApi: true }),
  t(11, 'PaLM2', ''),
  t(12, 'API2GPT', 'https://api.api2gpt.com', { balanceApi: true, modelListApi: true }),
  t(13, 'AIGC2D', 'https://api.aigc2d.com', { balanceApi: true, modelListApi: true }),
  t(14, 'Anthropic Claude', 'https://api.anthropic.com'),
  t(15, 'Baidu', 'https://aip.baidubce.com', { keyFormat: 'APIKey|SecretKey' }),
  t(16, 'Zhipu ChatGLM', 'https://open.bigmodel.cn'),
  t(17, 'Alibaba Qwen', 'https://dashscope.aliyuncs.com', { other: { kind: 'plugin' } }),
  t(18, 'Xunfei Spark', 'https://spark-api-open.xf-yun.com', {
    keyFormat: 'APPID|APISecret|APIKey',
    other: { kind: 'spark_version', default: 'v2.1' },
  }),
  t(19, '360', 'https://api.360.cn', { modelListApi: true }),
  t(20, 'OpenRouter', 'https://openrouter.ai/api', { balanceApi: true, modelListApi: true }),
  t(21, 'AI Proxy (knowledge base)', 'https://api.aiproxy.io', {
    other: { kind: 'knowledge_id' },
  }),
  t(22, 'FastGPT (knowledge base)', 'https://fastgpt.run/api/openapi', {
    keyFormat: 'APIKey-AppId',
  }),
  t(23, 'Tencent Hunyuan', 'https://hunyuan.tencentcloudapi.com', {
    keyFormat: 'AppId|SecretId|SecretKey',
  }),
  t(24, 'Google Gemini', 'https://generativelanguage.googleapis.com'),
  t(25, 'Moonshot', 'https://api.moonshot.cn', { modelListApi: true }),
  t(26, 'Zhipu GLM-4V', 'https://open.bigmodel.cn'),
  t(31, '01.AI', 'https://api.lingyiwanwu.com', { modelListApi: true }),
  t(33, 'AWS Claude', '', { keyFormat: 'Ak|Sk|Region' }),
  t(34, 'Cohere', 'https://api.cohere.ai'),
  t(35, 'MiniMax', 'https://api.minimax.chat'),
  t(36, 'Suno', ''),
  t(37, 'Dify', 'https://api.dify.ai'),
  t(38, 'Jina', 'https://api.jina.ai'),
  t(39, 'Cloudflare', 'https://api.cloudflare.com', { other: { kind: 'account_id' } }),
  t(40, 'SiliconCloud', 'https://api.siliconflow.cn', { balanceApi: true, modelListApi: true }),
  t(41, 'Vertex AI', '', { keyFormat: 'json', jsonKey: true, other: { kind: 'region_json' } }),
  t(42, 'Mistral AI', 'https://api.mistral.ai', { modelListApi: true }),
  t(43, 'DeepSeek', 'https://api.deepseek.com', { balanceApi: true, modelListApi: true }),
  // new-api's 字节火山方舟、豆包通用 and 百度文心千帆V2: the relay calls <base>/api/v3/... and <base>/v2/...
  t(45, 'VolcEngine Ark (Doubao)', 'https://ark.cn-beijing.volces.com'),
  t(46, 'Baidu Qianfan V2', 'https://qianfan.baidubce.com'),
  t(48, 'xAI', 'https://api.x.ai', { modelListApi: true }),
];

const BY_TYPE = new Map(CHANNEL_TYPE_TABLE.map((info) => [info.value, info]));

/** Type number → display name (type 0 and unknown numbers show as unknown). */
export const CHANNEL_TYPES: Readonly<Record<number, string>> = Object.fromEntries(
  CHANNEL_TYPE_TABLE.map((info) => [info.value, info.name]),
);

export function channelTypeInfo(type: number): ChannelTypeInfo | undefined {
  return BY_TYPE.get(type);
}

/** Template the form offers for Vertex AI's region JSON. */
export const VERTEX_REGION_TEMPLATE = '{\n  "default": "us-central1"\n}';

/** Templates the form offers: two legacy model renames; status code 400 reported as 500. */
export const MODEL_MAPPING_TEMPLATE =
  '{\n  "gpt-3.5-turbo-0301": "gpt-3.5-turbo",\n  "gpt-4-0314": "gpt-4"\n}';
export const STATUS_CODE_MAPPING_TEMPLATE = '{\n  "400": "500"\n}';
export const PARAM_OVERRIDE_TEMPLATE = '{\n  "temperature": 0\n}';

const PART = '[^|\\s]+';
const KEY_PATTERNS: Readonly<Record<ChannelKeyFormat, RegExp>> = {
  api_key: /^\S+$/,
  'APIKey|SecretKey': new RegExp(`^${PART}\\|${PART}$`),
  'APPID|APISecret|APIKey': new RegExp(`^${PART}\\|${PART}\\|${PART}$`),
  'APIKey-AppId': /^\S+-[^-\s]+$/,
  'AppId|SecretId|SecretKey': new RegExp(`^${PART}\\|${PART}\\|${PART}$`),
  'Ak|Sk|Region': new RegExp(`^${PART}\\|${PART}\\|${PART}$`),
  json: /^\{[\s\S]*\}$/,
};

/**
 * Splits the key field into the keys of the channels to create: one per non-empty line, except
 * for JSON-keyed types where the whole text is one key.
 */
export function splitChannelKeys(type: number, keyText: string): string[] {
  if (channelTypeInfo(type)?.jsonKey) {
    const whole = keyText.trim();
    return whole === '' ? [] : [whole];
  }
  return keyText
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Whether one key (one line) has the format its type expects. */
export function isValidChannelKey(type: number, key: string): boolean {
  const format = channelTypeInfo(type)?.keyFormat ?? 'api_key';
  if (!KEY_PATTERNS[format].test(key)) return false;
  if (format !== 'json') return true;
  try {
    const parsed: unknown = JSON.parse(key);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
