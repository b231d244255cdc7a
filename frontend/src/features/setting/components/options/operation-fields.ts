import type { FieldSpec } from '../../utils/option-form';

/** Operation tab cards; module constants so forms keep identity. */
export const GENERAL_FIELDS: readonly FieldSpec[] = [
  { key: 'TopUpLink', kind: 'text' },
  { key: 'general_setting.docs_link', kind: 'address' },
  { key: 'ChatLink', kind: 'text' },
  { key: 'ChatLink2', kind: 'text' },
  { key: 'QuotaPerUnit', kind: 'number', min: 1 },
  { key: 'RetryTimes', kind: 'number', min: 0, integer: true },
  { key: 'DisplayInCurrencyEnabled', kind: 'switch' },
  { key: 'DisplayTokenStatEnabled', kind: 'switch' },
  { key: 'DefaultCollapseSidebar', kind: 'switch' },
  { key: 'DemoSiteEnabled', kind: 'switch' },
  { key: 'SelfUseModeEnabled', kind: 'switch' },
];

export const DRAWING_FIELDS: readonly FieldSpec[] = [
  { key: 'DrawingEnabled', kind: 'switch' },
  { key: 'TaskEnabled', kind: 'switch' },
  { key: 'MjNotifyEnabled', kind: 'switch' },
  { key: 'MjAccountFilterEnabled', kind: 'switch' },
  { key: 'MjForwardUrlEnabled', kind: 'switch' },
  { key: 'MjModeClearEnabled', kind: 'switch' },
  { key: 'MjActionCheckSuccessEnabled', kind: 'switch' },
];

export const SENSITIVE_FIELDS: readonly FieldSpec[] = [
  { key: 'CheckSensitiveEnabled', kind: 'switch' },
  { key: 'CheckSensitiveOnPromptEnabled', kind: 'switch' },
  { key: 'StopOnSensitiveEnabled', kind: 'switch' },
  { key: 'StreamCacheQueueLength', kind: 'number', min: 0, integer: true },
  { key: 'SensitiveWords', kind: 'textarea', rows: 4 },
];

export const LOG_FIELDS: readonly FieldSpec[] = [
  { key: 'LogConsumeEnabled', kind: 'switch' },
  { key: 'ErrorLogEnabled', kind: 'switch' },
  { key: 'ReceiptRetentionDays', kind: 'number', min: 0, integer: true },
];

export const DASHBOARD_FIELDS: readonly FieldSpec[] = [
  { key: 'DataExportInterval', kind: 'number', min: 1, integer: true },
  { key: 'DataExportDefaultTime', kind: 'select', choices: ['hour', 'day', 'week'] },
  { key: 'DataExportEnabled', kind: 'switch' },
];

export const MONITORING_FIELDS: readonly FieldSpec[] = [
  { key: 'ChannelDisableThreshold', kind: 'number', min: 0 },
  { key: 'QuotaRemindThreshold', kind: 'number', min: 0, integer: true },
  { key: 'AutomaticRetryStatusCodes', kind: 'text' },
  { key: 'ChannelFailureBudgetCount', kind: 'number', min: 0, integer: true },
  { key: 'ChannelFailureBudgetWindowSeconds', kind: 'number', min: 1, integer: true },
  { key: 'RoutingStrategy', kind: 'select', choices: ['weighted', 'latency', 'least-busy'] },
  { key: 'ModelFallbacks', kind: 'json' },
  { key: 'ModelFallbackOnContextWindow', kind: 'switch' },
  { key: 'ModelFallbackOnContentFilter', kind: 'switch' },
  { key: 'AutomaticDisableKeywords', kind: 'textarea', rows: 4 },
  { key: 'AutomaticDisableChannelEnabled', kind: 'switch' },
  { key: 'AutomaticEnableChannelEnabled', kind: 'switch' },
];

export const RATE_LIMIT_FIELDS: readonly FieldSpec[] = [
  { key: 'ModelRequestRateLimitDurationMinutes', kind: 'number', min: 1, integer: true },
  { key: 'ModelRequestRateLimitCount', kind: 'number', min: 0, integer: true },
  { key: 'ModelRequestRateLimitSuccessCount', kind: 'number', min: 0, integer: true },
  { key: 'ModelRequestRateLimitEnabled', kind: 'switch' },
];

export const QUOTA_FIELDS: readonly FieldSpec[] = [
  { key: 'QuotaForNewUser', kind: 'number', min: 0, integer: true },
  { key: 'PreConsumedQuota', kind: 'number', min: 0, integer: true },
  { key: 'QuotaForInviter', kind: 'number', min: 0, integer: true },
  { key: 'QuotaForInvitee', kind: 'number', min: 0, integer: true },
];

export const CHATS_FIELDS: readonly FieldSpec[] = [{ key: 'Chats', kind: 'json' }];

/** new-api's 模型相关设置: the providers' settings the relay's adaptors apply (docs/providers.md). */
export const MODEL_GLOBAL_FIELDS: readonly FieldSpec[] = [
  { key: 'global.pass_through_request_enabled', kind: 'switch' },
];

export const MODEL_GEMINI_FIELDS: readonly FieldSpec[] = [
  { key: 'gemini.safety_settings', kind: 'json' },
  { key: 'gemini.version_settings', kind: 'json' },
];

export const MODEL_CLAUDE_FIELDS: readonly FieldSpec[] = [
  { key: 'claude.model_headers_settings', kind: 'json' },
  { key: 'claude.default_max_tokens', kind: 'json' },
  { key: 'claude.thinking_adapter_enabled', kind: 'switch' },
  { key: 'claude.thinking_adapter_budget_tokens_percentage', kind: 'number', min: 0.1 },
];

export const RATIO_FIELDS: readonly FieldSpec[] = [
  { key: 'ModelMaxOutputTokens', kind: 'json' },
  { key: 'GroupRatio', kind: 'json' },
  { key: 'UserUsableGroups', kind: 'json' },
  { key: 'CacheRatio', kind: 'json' },
  { key: 'CacheCreationRatio', kind: 'json' },
];
