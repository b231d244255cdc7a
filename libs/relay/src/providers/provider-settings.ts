/**
 * new-api's provider settings (`claude.*`, `gemini.*`, `global.pass_through_request_enabled`) as
 * the adaptors read them. The gateway parses the option strings once per change
 * (`parseProviderSettings`) and hands the result to `request()` in its RequestContext: a request
 * never parses option JSON.
 */
import { type JsonObject, parseJsonObject } from '../openai/request-body';

export interface ClaudeSettings {
  /** `claude.model_headers_settings`: the client's model → header name (lower case) → values. */
  readonly headers: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** `claude.default_max_tokens`: the upstream model → max_tokens; `default` for the others. */
  readonly defaultMaxTokens: Readonly<Record<string, number>>;
  /** `claude.thinking_adapter_enabled`: `<model>-thinking` means the model with thinking on. */
  readonly thinkingAdapter: boolean;
  /** `claude.thinking_adapter_budget_tokens_percentage`: budget_tokens = max_tokens × this. */
  readonly thinkingBudgetRatio: number;
}

export interface GeminiSafetySetting {
  readonly category: string;
  readonly threshold: string;
}

export interface GeminiSettings {
  /** `gemini.safety_settings` resolved for every category sent (built once, not per request). */
  readonly safety: readonly GeminiSafetySetting[];
  /** `gemini.version_settings`: the upstream model → API version; `default` for the others. */
  readonly versions: Readonly<Record<string, string>>;
}

export interface ProviderSettings {
  readonly claude: ClaudeSettings;
  readonly gemini: GeminiSettings;
  /** `global.pass_through_request_enabled`: the client's body goes upstream as it came. */
  readonly passThrough: boolean;
}

/**
 * new-api's defaults (setting/model_setting): what an untouched option means. Anthropic requires
 * max_tokens: a request without one gets CLAUDE_DEFAULT_MAX_TOKENS.
 */
export const CLAUDE_DEFAULT_MAX_TOKENS = 8192;
export const CLAUDE_THINKING_BUDGET_RATIO = 0.8;
export const GEMINI_DEFAULT_VERSION = 'v1beta';
export const GEMINI_DEFAULT_THRESHOLD = 'OFF';

/** The categories new-api always sends (Google deprecated HARM_CATEGORY_CIVIC_INTEGRITY). */
export const GEMINI_SAFETY_CATEGORIES: readonly string[] = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
];

/** The option strings, by option key (absent = the option's default). */
export interface ProviderOptionStrings {
  readonly 'claude.model_headers_settings'?: string;
  readonly 'claude.default_max_tokens'?: string;
  readonly 'claude.thinking_adapter_enabled'?: string;
  readonly 'claude.thinking_adapter_budget_tokens_percentage'?: string;
  readonly 'gemini.safety_settings'?: string;
  readonly 'gemini.version_settings'?: string;
  readonly 'global.pass_through_request_enabled'?: string;
}

function objectOf(raw: string | undefined): JsonObject {
  return (raw ? parseJsonObject(raw) : undefined) ?? {};
}

function headerMap(raw: string | undefined): ClaudeSettings['headers'] {
  const out: Record<string, Record<string, string[]>> = {};
  for (const [model, headers] of Object.entries(objectOf(raw))) {
    if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) continue;
    const named: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(headers as Record<string, unknown>)) {
      const list = (Array.isArray(values) ? values : [values]).filter(
        (v): v is string => typeof v === 'string',
      );
      if (list.length > 0) named[name.toLowerCase()] = list;
    }
    if (Object.keys(named).length > 0) out[model] = named;
  }
  return out;
}

function intMap(raw: string | undefined, fallback: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [model, value] of Object.entries(objectOf(raw))) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[model] = value;
  }
  // new-api keeps a `default` entry whatever the option says.
  if (!(typeof out.default === 'number')) out.default = fallback;
  return out;
}

function stringMap(raw: string | undefined, fallback: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(objectOf(raw))) {
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  if (!out.default) out.default = fallback;
  return out;
}

/** The safety list: the standard categories, then any other category the option names. */
function safetyList(raw: string | undefined): GeminiSafetySetting[] {
  const map = stringMap(raw, GEMINI_DEFAULT_THRESHOLD);
  const categories = [
    ...GEMINI_SAFETY_CATEGORIES,
    ...Object.keys(map).filter((k) => k !== 'default' && !GEMINI_SAFETY_CATEGORIES.includes(k)),
  ];
  return categories.map((category) => ({
    category,
    threshold: map[category] ?? map.default ?? GEMINI_DEFAULT_THRESHOLD,
  }));
}

export function parseProviderSettings(o: ProviderOptionStrings): ProviderSettings {
  const ratio = Number(o['claude.thinking_adapter_budget_tokens_percentage']);
  return {
    claude: {
      headers: headerMap(o['claude.model_headers_settings']),
      defaultMaxTokens: intMap(o['claude.default_max_tokens'], CLAUDE_DEFAULT_MAX_TOKENS),
      thinkingAdapter: o['claude.thinking_adapter_enabled'] !== 'false',
      thinkingBudgetRatio:
        o['claude.thinking_adapter_budget_tokens_percentage'] !== undefined &&
        Number.isFinite(ratio) &&
        ratio > 0
          ? ratio
          : CLAUDE_THINKING_BUDGET_RATIO,
    },
    gemini: {
      safety: safetyList(o['gemini.safety_settings']),
      versions: stringMap(
        o['gemini.version_settings'] ??
          JSON.stringify({ default: GEMINI_DEFAULT_VERSION, 'gemini-1.0-pro': 'v1' }),
        GEMINI_DEFAULT_VERSION,
      ),
    },
    passThrough: o['global.pass_through_request_enabled'] === 'true',
  };
}

/** Every option at new-api's default. */
export const DEFAULT_PROVIDER_SETTINGS: ProviderSettings = parseProviderSettings({});
