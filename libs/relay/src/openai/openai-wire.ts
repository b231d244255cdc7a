/**
 * The OpenAI wire as the channel types that speak it need it: where a request goes (URL and
 * headers), which model name goes upstream, and whether the upstream reports usage on streams when
 * asked. Pure: the gateway opens the sockets.
 */

/** The relay endpoints that speak the OpenAI wire; the value is the path under /v1. */
export const RELAY_ENDPOINTS = {
  chat: '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  imagesGenerations: '/images/generations',
  audioSpeech: '/audio/speech',
  audioTranscriptions: '/audio/transcriptions',
  audioTranslations: '/audio/translations',
  moderations: '/moderations',
  rerank: '/rerank',
  /** OpenAI's Responses API (passed through to OpenAI-wire channels). */
  responses: '/responses',
} as const;
export type RelayEndpoint = keyof typeof RELAY_ENDPOINTS;

/** What the wire needs of a channel (a structural subset of the routing table's RoutedChannel). */
export interface WireChannel {
  readonly type: number;
  readonly baseUrl: string;
  readonly key: string;
  readonly other: string;
  readonly openaiOrganization: string;
  readonly modelMapping: Readonly<Record<string, string>>;
}

export interface UpstreamTarget {
  /** scheme://host[:port]: one connection pool per origin. */
  readonly origin: string;
  /** Path and query. */
  readonly path: string;
  readonly headers: Record<string, string>;
}

export const CHANNEL_TYPE = {
  openai: 1,
  azure: 3,
  ollama: 4,
  custom: 8,
  xunfei: 18,
  openRouter: 20,
  zhipuV4: 26,
  perplexity: 27,
  miniMax: 35,
  jina: 38,
  cloudflare: 39,
  volcEngine: 45,
  baiduV2: 46,
} as const;

/**
 * Types relayed with the OpenAI wire in this version (the types of docs/providers.md
 * that need no protocol conversion). The converting providers come with their own adaptors.
 */
const OPENAI_WIRE_TYPES: ReadonlySet<number> = new Set([
  1, 3, 4, 6, 7, 8, 9, 10, 12, 13, 18, 19, 20, 22, 25, 26, 27, 31, 35, 38, 39, 40, 42, 43, 45, 46,
  47, 48, 53,
]);

/** Upstreams known to honour `stream_options.include_usage` (the rest are counted locally). */
const STREAM_USAGE_TYPES: ReadonlySet<number> = new Set([
  1, 3, 8, 20, 26, 31, 40, 42, 43, 45, 46, 47, 48,
]);

/** Azure's default when the channel does not say (`other` holds the api-version). */
export const AZURE_DEFAULT_API_VERSION = '2024-12-01-preview';

export function speaksOpenAiWire(type: number): boolean {
  return OPENAI_WIRE_TYPES.has(type);
}

export function reportsStreamUsage(type: number): boolean {
  return STREAM_USAGE_TYPES.has(type);
}

/**
 * One-api's and new-api's Spark models were WebSocket API versions (`SparkDesk-v3.5`); Spark's HTTP
 * API, which Tollgate relays to, names the same models differently. Imported channels keep working.
 */
const SPARK_HTTP_MODELS: Readonly<Record<string, string>> = {
  SparkDesk: 'lite',
  'SparkDesk-v1.1': 'lite',
  'SparkDesk-v2.1': 'generalv3',
  'SparkDesk-v3.1': 'generalv3',
  'SparkDesk-v3.1-128K': 'pro-128k',
  'SparkDesk-v3.5': 'generalv3.5',
  'SparkDesk-v3.5-32K': 'max-32k',
  'SparkDesk-v4.0': '4.0Ultra',
};

/** The channel's model mapping applied once; billing stays on the requested name. */
export function upstreamModelName(
  channel: Pick<WireChannel, 'modelMapping'> & Partial<Pick<WireChannel, 'type'>>,
  model: string,
): string {
  const mapped = Object.prototype.hasOwnProperty.call(channel.modelMapping, model)
    ? channel.modelMapping[model]
    : undefined;
  const name = typeof mapped === 'string' && mapped.trim() !== '' ? mapped.trim() : model;
  if (
    channel.type === CHANNEL_TYPE.xunfei &&
    Object.prototype.hasOwnProperty.call(SPARK_HTTP_MODELS, name)
  ) {
    return SPARK_HTTP_MODELS[name] as string;
  }
  return name;
}

/** Provider paths that differ from OpenAI's `/v1/<endpoint>`. */
function providerPath(type: number, endpoint: RelayEndpoint): string {
  const tail = RELAY_ENDPOINTS[endpoint];
  switch (type) {
    case CHANNEL_TYPE.zhipuV4:
      return `/api/paas/v4${tail}`;
    case CHANNEL_TYPE.volcEngine:
      return `/api/v3${tail}`;
    case CHANNEL_TYPE.baiduV2:
      return `/v2${tail}`;
    case CHANNEL_TYPE.perplexity:
      return tail;
    case CHANNEL_TYPE.miniMax:
      return endpoint === 'chat' ? '/v1/text/chatcompletion_v2' : `/v1${tail}`;
    default:
      return `/v1${tail}`;
  }
}

/**
 * Workers AI's OpenAI-compatible base is per account; new-api keeps the account id in `other`.
 * Throws for an empty one: the channel cannot make any request.
 */
function cloudflareBase(base: string, other: string): string {
  const account = other.trim();
  if (account === '') {
    throw new Error('Cloudflare Workers AI: the channel has no account id (set it in "other")');
  }
  return `${base}/client/v4/accounts/${encodeURIComponent(account)}/ai/v1`;
}

/**
 * Spark's HTTP API (spark-api-open.xf-yun.com) takes `APIKey:APISecret` as its bearer: built from
 * the console's `APPID|APISecret|APIKey`; any other key (the APIPassword) goes as it is.
 */
function sparkBearer(key: string): string {
  const parts = key.split('|').map((part) => part.trim());
  return parts.length === 3 ? `${parts[2]}:${parts[1]}` : key.trim();
}

function splitUrl(url: string): { origin: string; path: string } {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

function azureApiVersion(other: string): string {
  const trimmed = other.trim();
  if (trimmed === '') return AZURE_DEFAULT_API_VERSION;
  // `other` is either the bare api-version (one-api's and new-api's console) or a JSON object with
  // one.
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as { api_version?: unknown };
      if (typeof parsed.api_version === 'string' && parsed.api_version) return parsed.api_version;
    } catch {
      return AZURE_DEFAULT_API_VERSION;
    }
    return AZURE_DEFAULT_API_VERSION;
  }
  return trimmed;
}

/**
 * Where and how to send `endpoint` for `upstreamModel` on `channel`. `contentType` is the client's
 * (multipart keeps its boundary); `stream` asks for SSE.
 */
export function upstreamTarget(
  channel: WireChannel,
  endpoint: RelayEndpoint,
  upstreamModel: string,
  contentType: string,
  stream: boolean,
): UpstreamTarget {
  const base = channel.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': contentType };
  if (stream) headers.accept = 'text/event-stream';
  let url: string;
  if (channel.type === CHANNEL_TYPE.azure) {
    // Azure deployments cannot contain dots: gpt-3.5-turbo is deployed as gpt-35-turbo.
    const deployment = encodeURIComponent(upstreamModel.replace(/\./g, ''));
    const version = encodeURIComponent(azureApiVersion(channel.other));
    url = `${base}/openai/deployments/${deployment}${RELAY_ENDPOINTS[endpoint]}?api-version=${version}`;
    headers['api-key'] = channel.key;
  } else {
    if (channel.type === CHANNEL_TYPE.custom) {
      url = base.split('{model}').join(encodeURIComponent(upstreamModel));
    } else if (channel.type === CHANNEL_TYPE.cloudflare) {
      url = `${cloudflareBase(base, channel.other)}${RELAY_ENDPOINTS[endpoint]}`;
    } else {
      url = `${base}${providerPath(channel.type, endpoint)}`;
    }
    const key = channel.type === CHANNEL_TYPE.xunfei ? sparkBearer(channel.key) : channel.key;
    headers.authorization = `Bearer ${key}`;
  }
  if (channel.type === CHANNEL_TYPE.openai && channel.openaiOrganization) {
    headers['openai-organization'] = channel.openaiOrganization;
  }
  if (channel.type === CHANNEL_TYPE.openRouter) {
    headers['http-referer'] = 'https://github.com/tollgate';
    headers['x-title'] = 'Tollgate';
  }
  const { origin, path } = splitUrl(url);
  return { origin, path, headers };
}
