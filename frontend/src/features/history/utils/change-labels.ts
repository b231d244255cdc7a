import type { HistoryEntityKind } from '@tollgate/contracts';
import type { ParseKeys } from 'i18next';

/**
 * A stored field's label, per kind of subject: the key its edit form (or list) already uses, so a
 * field reads the same in the drawer as where it is changed. Fields not listed here fall back to
 * history.fields, then to the name as stored.
 */
const FORM_LABELS: Partial<Record<HistoryEntityKind, Readonly<Record<string, ParseKeys>>>> = {
  token: {
    name: 'tokens.drawer.name',
    status: 'tokens.columns.status',
    expired_time: 'tokens.drawer.expiry',
    remain_quota: 'tokens.drawer.quota',
    unlimited_quota: 'tokens.drawer.unlimited',
    model_limits_enabled: 'tokens.drawer.modelLimitsEnabled',
    model_limits: 'tokens.drawer.modelLimits',
    allow_ips: 'tokens.drawer.allowIps',
    group: 'tokens.drawer.group',
    rate_limit_rpm: 'tokens.drawer.rpm',
    rate_limit_tpm: 'tokens.drawer.tpm',
    rate_limit_concurrency: 'tokens.drawer.concurrency',
    period: 'tokens.drawer.period',
    period_quota: 'tokens.drawer.periodQuota',
    model_fallback: 'tokens.drawer.modelFallback',
  },
  channel: {
    type: 'channels.form.type',
    name: 'channels.form.name',
    status: 'channels.columns.status',
    base_url: 'channels.form.baseUrl',
    other: 'channels.form.other.generic',
    key: 'channels.form.key',
    models: 'channels.form.models',
    groups: 'channels.form.groups',
    model_mapping: 'channels.form.modelMapping',
    status_code_mapping: 'channels.form.statusCodeMapping',
    setting: 'channels.form.setting',
    test_model: 'channels.form.testModel',
    openai_organization: 'channels.form.organization',
    max_input_tokens: 'channels.form.maxInputTokens',
    tag: 'channels.form.tag',
    priority: 'channels.form.priority',
    weight: 'channels.form.weight',
    auto_ban: 'channels.form.autoBan',
    balance: 'history.fields.balance',
  },
  redemption: {
    name: 'redemptions.drawer.name',
    quota: 'redemptions.drawer.quota',
    status: 'redemptions.columns.status',
    redeemed_time: 'redemptions.columns.redeemed',
    used_user_id: 'redemptions.columns.usedBy',
  },
  user: {
    username: 'users.columns.username',
    display_name: 'users.displayName',
    group: 'users.columns.group',
    role: 'users.columns.role',
    status: 'users.columns.status',
    quota: 'users.remainingQuota',
    used_quota: 'users.usedQuota',
    request_count: 'users.requestCount',
  },
};

/**
 * The i18n key of a field's label, or null when none is known (the stored name is shown). An
 * option is labelled as the settings page labels it; an option the page does not show falls back
 * to its key (the caller passes it as the default).
 */
export function fieldLabelKey(
  kind: HistoryEntityKind | undefined,
  field: string,
  historyFields: Readonly<Record<string, unknown>>,
): ParseKeys | null {
  if (kind === 'option') return `options.labels.${field}` as ParseKeys;
  const form = kind ? FORM_LABELS[kind]?.[field] : undefined;
  if (form) return form;
  return Object.prototype.hasOwnProperty.call(historyFields, field)
    ? (`history.fields.${field}` as ParseKeys)
    : null;
}
