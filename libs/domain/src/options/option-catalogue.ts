/**
 * Every option key the console knows, with its kind and the one-api/new-api family's default.
 * Values travel as strings (the wire contract); `kind` says how they must parse.
 */
import { DEFAULT_DISABLE_KEYWORDS } from '../channel/channel-failure';
import { DEFAULT_MODEL_MAX_OUTPUT_TOKENS } from '../pricing/output-ceiling';

export type OptionKind =
  | 'bool'
  | 'int'
  | 'float'
  | 'string'
  | 'text'
  | 'address'
  | 'json-object-number'
  | 'json-object-string'
  | 'json-object-int'
  | 'json-model-headers'
  | 'json-chats'
  | 'json-model-fallbacks'
  | 'email-list';

export interface OptionDefinition {
  readonly kind: OptionKind;
  readonly defaultValue: string;
  /** Secrets are encrypted in events and never returned by GET /api/option/. */
  readonly secret?: boolean;
  /** Lower bound for numeric kinds. */
  readonly min?: number;
  /** Upper bound for numeric kinds. */
  readonly max?: number;
  /** The only values a string option accepts (json-object-string: its values, '' allowed). */
  readonly choices?: readonly string[];
}

const bool = (value: boolean): OptionDefinition => ({ kind: 'bool', defaultValue: String(value) });
const int = (value: number, min = 0): OptionDefinition => ({
  kind: 'int',
  defaultValue: String(value),
  min,
});
const float = (value: number, min = 0): OptionDefinition => ({
  kind: 'float',
  defaultValue: String(value),
  min,
});
/** A role threshold: guest 0, user 1, administrator 10, root 100 (as new-api stores them). */
const role = (value: number): OptionDefinition => ({
  kind: 'string',
  defaultValue: String(value),
  choices: ['0', '1', '10', '100'],
});
const str = (value = ''): OptionDefinition => ({ kind: 'string', defaultValue: value });
const text = (value = ''): OptionDefinition => ({ kind: 'text', defaultValue: value });
const address = (): OptionDefinition => ({ kind: 'address', defaultValue: '' });
const secret = (): OptionDefinition => ({ kind: 'string', defaultValue: '', secret: true });
const numbers = (value: Record<string, number>): OptionDefinition => ({
  kind: 'json-object-number',
  defaultValue: JSON.stringify(value, null, 2),
});

export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  'gpt-4o': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-4-turbo': 5,
  'gpt-4': 15,
  'gpt-3.5-turbo': 0.25,
  'o1-mini': 1.5,
  'text-embedding-3-small': 0.01,
  'text-embedding-3-large': 0.065,
  'claude-3-5-sonnet-20241022': 1.5,
  'claude-3-5-haiku-20241022': 0.5,
  'claude-3-opus-20240229': 7.5,
  'gemini-1.5-pro': 1.75,
  'gemini-1.5-flash': 0.0375,
  'deepseek-chat': 0.135,
  'moonshot-v1-8k': 0.6,
  'glm-4': 7.143,
  'qwen-turbo': 0.0214,
};

export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {
  'gpt-4o': 4,
  'gpt-4o-mini': 4,
  'gpt-4-turbo': 3,
  'gpt-4': 2,
  'gpt-3.5-turbo': 3,
  'o1-mini': 4,
  'claude-3-5-sonnet-20241022': 5,
  'claude-3-5-haiku-20241022': 5,
  'claude-3-opus-20240229': 5,
  'gemini-1.5-pro': 4,
  'gemini-1.5-flash': 4,
  'deepseek-chat': 2,
};

export const DEFAULT_MODEL_PRICE: Record<string, number> = {
  'dall-e-3': 0.04,
  // new-api's per-call task prices (setting/operation_setting/model-ratio.go).
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_modal: 0.1,
  mj_zoom: 0.1,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_pan: 0.1,
  mj_inpaint: 0,
  mj_custom_zoom: 0,
  mj_describe: 0.05,
  mj_upscale: 0.05,
  swap_face: 0.05,
  mj_upload: 0.05,
  suno_music: 0.1,
  suno_lyrics: 0.01,
};

/** new-api's default CacheRatio (its setting/operation_setting/cache_ratio.go, April 2025). */
export const DEFAULT_CACHE_RATIO: Record<string, number> = {
  'gpt-4': 0.5,
  o1: 0.5,
  'o1-2024-12-17': 0.5,
  'o1-preview-2024-09-12': 0.5,
  'o1-preview': 0.5,
  'o1-mini-2024-09-12': 0.5,
  'o1-mini': 0.5,
  'o3-mini': 0.5,
  'o3-mini-2025-01-31': 0.5,
  'gpt-4o-2024-11-20': 0.5,
  'gpt-4o-2024-08-06': 0.5,
  'gpt-4o': 0.5,
  'gpt-4o-mini-2024-07-18': 0.5,
  'gpt-4o-mini': 0.5,
  'gpt-4o-realtime-preview': 0.5,
  'gpt-4o-mini-realtime-preview': 0.5,
  'gpt-4.5-preview': 0.5,
  'gpt-4.5-preview-2025-02-27': 0.5,
  'deepseek-chat': 0.25,
  'deepseek-reasoner': 0.25,
  'deepseek-coder': 0.25,
  'claude-3-sonnet-20240229': 0.1,
  'claude-3-opus-20240229': 0.1,
  'claude-3-haiku-20240307': 0.1,
  'claude-3-5-haiku-20241022': 0.1,
  'claude-3-5-sonnet-20240620': 0.1,
  'claude-3-5-sonnet-20241022': 0.1,
  'claude-3-7-sonnet-20250219': 0.1,
  'claude-3-7-sonnet-20250219-thinking': 0.1,
};

export const OPTION_CATALOGUE: Readonly<Record<string, OptionDefinition>> = {
  // Login and register switches
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  GitHubOAuthEnabled: bool(false),
  WeChatAuthEnabled: bool(false),
  TelegramOAuthEnabled: bool(false),
  TurnstileCheckEnabled: bool(false),
  RegisterEnabled: bool(true),
  EmailDomainRestrictionEnabled: bool(false),
  EmailAliasRestrictionEnabled: bool(false),
  // Mail
  SMTPSSLEnabled: bool(false),
  EmailDomainWhitelist: {
    kind: 'email-list',
    defaultValue:
      'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  },
  SMTPServer: str(),
  SMTPPort: int(587, 1),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: secret(),
  // Addresses and payment
  ServerAddress: address(),
  WorkerUrl: address(),
  WorkerValidKey: secret(),
  EpayId: str(),
  EpayKey: secret(),
  Price: float(7.3),
  MinTopUp: int(1, 1),
  TopupGroupRatio: numbers({ default: 1, vip: 1, svip: 1 }),
  PayAddress: address(),
  CustomCallbackAddress: address(),
  // Stripe Checkout top-up (new-api's keys and defaults): the Price object behind
  // StripePriceId sets what Stripe charges per unit; StripeUnitPrice only shows it in the wallet.
  StripeApiSecret: secret(),
  StripeWebhookSecret: secret(),
  StripePriceId: str(),
  StripeUnitPrice: float(8),
  StripeMinTopUp: int(1, 1),
  // Third-party login
  GitHubClientId: str(),
  GitHubClientSecret: secret(),
  WeChatServerAddress: address(),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: str(),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: secret(),
  TelegramBotToken: secret(),
  TelegramBotName: str(),
  // OpenID Connect under new-api's keys (its setting/system_setting/oidc.go). The console builds the
  // authorize URL from authorization_endpoint; endpoints left empty are read from well_known.
  'oidc.enabled': bool(false),
  'oidc.client_id': str(),
  'oidc.client_secret': secret(),
  'oidc.well_known': address(),
  'oidc.authorization_endpoint': address(),
  'oidc.token_endpoint': address(),
  'oidc.user_info_endpoint': address(),
  // Linux DO Connect (new-api's controller/linuxdo.go)
  LinuxDOOAuthEnabled: bool(false),
  LinuxDOClientId: str(),
  LinuxDOClientSecret: secret(),
  // Branding and pages
  Notice: text(),
  SystemName: str('Tollgate'),
  Logo: str(),
  Footer: text(),
  About: text(),
  HomePageContent: text(),
  TopUpLink: str(),
  ChatLink: str(),
  ChatLink2: str(),
  // new-api's documentation link in the console header (GET /api/status docs_link); '' hides it.
  'general_setting.docs_link': address(),
  // Display and quota
  QuotaPerUnit: float(500000, 1),
  RetryTimes: int(0),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  DefaultCollapseSidebar: bool(false),
  DemoSiteEnabled: bool(false),
  // Drawing and tasks
  // new-api's defaults (common/constants.go, setting/midjourney.go): drawing on, modes kept.
  DrawingEnabled: bool(true),
  TaskEnabled: bool(true),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjForwardUrlEnabled: bool(true),
  MjModeClearEnabled: bool(false),
  MjActionCheckSuccessEnabled: bool(true),
  // Sensitive words
  CheckSensitiveEnabled: bool(false),
  CheckSensitiveOnPromptEnabled: bool(false),
  SensitiveWords: text(''),
  // Stop a stream (or refuse a whole answer) whose output contains a word (new-api's default: on).
  StopOnSensitiveEnabled: bool(true),
  // Stream events held back while the output is checked; 0 = none (new-api's default).
  StreamCacheQueueLength: int(0),
  // new-api's role thresholds (0 guest = everyone), gating uploads and downloads through the relay
  // (docs/decisions.md: images/files in prompts, multipart audio, generated images, speech).
  FileUploadPermission: role(0),
  FileDownloadPermission: role(0),
  ImageUploadPermission: role(0),
  ImageDownloadPermission: role(0),
  // Logs and dashboard
  LogConsumeEnabled: bool(true),
  ErrorLogEnabled: bool(true),
  DataExportEnabled: bool(true),
  DataExportInterval: int(5, 1),
  DataExportDefaultTime: { kind: 'string', defaultValue: 'hour', choices: ['hour', 'day', 'week'] },
  // Days per-request receipts stay in the live store before they are folded into hourly sums and
  // archived (docs/retention.md); 0 keeps every receipt.
  ReceiptRetentionDays: int(0),
  // Monitoring
  ChannelDisableThreshold: float(5),
  QuotaRemindThreshold: int(1000),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  // Notices: webhook URLs resolving to loopback/private/link-local addresses are refused unless on.
  WebhookAllowPrivateAddresses: bool(false),
  // Quota grants
  QuotaForNewUser: int(0),
  PreConsumedQuota: int(500),
  QuotaForInviter: int(0),
  QuotaForInvitee: int(0),
  // Ratios and groups
  ModelPrice: numbers(DEFAULT_MODEL_PRICE),
  ModelRatio: numbers(DEFAULT_MODEL_RATIO),
  CompletionRatio: numbers(DEFAULT_COMPLETION_RATIO),
  // The output ceiling of a request that sets none (docs/relay.md "The output ceiling"): model →
  // tokens; `prefix*` entries for families, `*` for every other model.
  ModelMaxOutputTokens: {
    kind: 'json-object-int',
    defaultValue: JSON.stringify(DEFAULT_MODEL_MAX_OUTPUT_TOKENS, null, 2),
  },
  GroupRatio: numbers({ default: 1, vip: 1, svip: 1 }),
  // Relay: cache ratios, self-use mode, retry/disable rules, per-user request limits, the
  // channel failure budget (Tollgate's own, off by default)
  CacheRatio: numbers(DEFAULT_CACHE_RATIO),
  // Prompt tokens written to the provider's cache (Anthropic's five-minute writes: 1.25 × input).
  CacheCreationRatio: numbers({
    'claude-3-5-sonnet-20241022': 1.25,
    'claude-3-5-haiku-20241022': 1.25,
    'claude-3-opus-20240229': 1.25,
  }),
  SelfUseModeEnabled: bool(false),
  AutomaticDisableKeywords: text(DEFAULT_DISABLE_KEYWORDS.join('\n')),
  AutomaticRetryStatusCodes: str('100-199,300-399,401-407,409-499,500-503,505-523,525-599'),
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitDurationMinutes: int(1, 1),
  ModelRequestRateLimitCount: int(0),
  ModelRequestRateLimitSuccessCount: int(1000),
  ChannelFailureBudgetCount: int(0),
  ChannelFailureBudgetWindowSeconds: int(60, 1),
  // How a priority tier shares traffic: static weights (one-api's and new-api's), observed
  // latency and errors, or the fewest open calls (docs/relay.md "Adaptive routing").
  RoutingStrategy: {
    kind: 'string',
    defaultValue: 'weighted',
    choices: ['weighted', 'latency', 'least-busy'],
  },
  // Model fallbacks (docs/relay.md "Model fallbacks"): model → the models tried in order once
  // every channel of it failed, as LiteLLM's router does; not transitive.
  ModelFallbacks: { kind: 'json-model-fallbacks', defaultValue: '{}' },
  // Whether a context-window or content-filter refusal moves on to the fallbacks too.
  ModelFallbackOnContextWindow: bool(false),
  ModelFallbackOnContentFilter: bool(false),
  UserUsableGroups: {
    kind: 'json-object-string',
    defaultValue: JSON.stringify({ default: '默认分组', vip: 'vip分组' }, null, 2),
  },
  Chats: {
    kind: 'json-chats',
    defaultValue: JSON.stringify(
      [
        {
          'ChatGPT Next Web':
            'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}',
        },
        {
          'Lobe Chat':
            'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}',
        },
      ],
      null,
      2,
    ),
  },
  // new-api's provider settings (setting/model_setting), applied by the relay's adaptors
  // (docs/providers.md "Provider settings"): the Gemini safety thresholds and API versions, the
  // Claude per-model headers, default max_tokens and `-thinking` adapter, the global pass-through.
  'gemini.safety_settings': {
    kind: 'json-object-string',
    defaultValue: JSON.stringify({ default: 'OFF' }, null, 2),
    choices: [
      'OFF',
      'BLOCK_NONE',
      'BLOCK_ONLY_HIGH',
      'BLOCK_MEDIUM_AND_ABOVE',
      'BLOCK_LOW_AND_ABOVE',
      'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
    ],
  },
  'gemini.version_settings': {
    kind: 'json-object-string',
    defaultValue: JSON.stringify({ default: 'v1beta', 'gemini-1.0-pro': 'v1' }, null, 2),
  },
  'claude.model_headers_settings': { kind: 'json-model-headers', defaultValue: '{}' },
  'claude.default_max_tokens': {
    kind: 'json-object-int',
    defaultValue: JSON.stringify({ default: 8192 }, null, 2),
  },
  'claude.thinking_adapter_enabled': bool(true),
  'claude.thinking_adapter_budget_tokens_percentage': {
    kind: 'float',
    defaultValue: '0.8',
    min: 0.1,
    max: 1,
  },
  'global.pass_through_request_enabled': bool(false),
};

/** Keys reset by POST /api/option/rest_model_ratio. */
export const MODEL_RATIO_KEYS = ['ModelRatio', 'CompletionRatio', 'ModelPrice'] as const;

/** Payment callbacks need a public server address first. */
export const KEYS_NEEDING_SERVER_ADDRESS: readonly string[] = ['PayAddress', 'EpayId', 'EpayKey'];

export function optionDefinition(key: string): OptionDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(OPTION_CATALOGUE, key)
    ? OPTION_CATALOGUE[key]
    : undefined;
}

export function isSecretOption(key: string): boolean {
  return optionDefinition(key)?.secret === true;
}
