import type { FieldSpec } from '../../utils/option-form';

/** Operation tab cards (spec 000 §2 "Operation tab"); module constants so forms keep identity. */
export const GENERAL_FIELDS: readonly FieldSpec[] = [
  { key: 'TopUpLink', kind: 'text' },
  { key: 'ChatLink', kind: 'text' },
  { key: 'ChatLink2', kind: 'text' },
  { key: 'QuotaPerUnit', kind: 'number', min: 1 },
  { key: 'RetryTimes', kind: 'number', min: 0, integer: true },
  { key: 'DisplayInCurrencyEnabled', kind: 'switch' },
  { key: 'DisplayTokenStatEnabled', kind: 'switch' },
  { key: 'DefaultCollapseSidebar', kind: 'switch' },
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
  { key: 'SensitiveWords', kind: 'textarea', rows: 4 },
];

export const LOG_FIELDS: readonly FieldSpec[] = [{ key: 'LogConsumeEnabled', kind: 'switch' }];

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

export const RATIO_FIELDS: readonly FieldSpec[] = [
  { key: 'ModelRatio', kind: 'json' },
  { key: 'CompletionRatio', kind: 'json' },
  { key: 'ModelPrice', kind: 'json' },
  { key: 'GroupRatio', kind: 'json' },
  { key: 'UserUsableGroups', kind: 'json' },
  { key: 'CacheRatio', kind: 'json' },
  { key: 'CacheCreationRatio', kind: 'json' },
];
