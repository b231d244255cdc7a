import {
  CHANNEL_TYPES,
  ChannelStatus,
  RedemptionStatus,
  Role,
  TokenStatus,
  UserStatus,
  type HistoryEntityKind,
} from '@tollgate/contracts';
import type { ParseKeys, TFunction } from 'i18next';
import { formatDateTime } from '@/utils/date-time';
import { isBlank } from './visible-changes';

/** A status number's name key per kind of subject (the key its list's status badge uses). */
const STATUS_KEYS: Partial<Record<HistoryEntityKind, Readonly<Record<number, ParseKeys>>>> = {
  token: {
    [TokenStatus.Enabled]: 'tokens.status.enabled',
    [TokenStatus.Disabled]: 'tokens.status.disabled',
    [TokenStatus.Expired]: 'tokens.status.expired',
    [TokenStatus.Exhausted]: 'tokens.status.exhausted',
  },
  channel: {
    [ChannelStatus.Enabled]: 'channels.status.enabled',
    [ChannelStatus.ManuallyDisabled]: 'channels.status.manuallyDisabled',
    [ChannelStatus.AutoDisabled]: 'channels.status.autoDisabled',
  },
  redemption: {
    [RedemptionStatus.Unused]: 'redemptions.status.unused',
    [RedemptionStatus.Disabled]: 'redemptions.status.disabled',
    [RedemptionStatus.Used]: 'redemptions.status.used',
  },
  user: {
    [UserStatus.Enabled]: 'users.status.enabled',
    [UserStatus.Disabled]: 'users.status.disabled',
    [UserStatus.Deregistered]: 'users.status.deregistered',
  },
};

export function roleKey(role: number) {
  if (role >= Role.Root) return 'root' as const;
  if (role >= Role.Admin) return 'admin' as const;
  if (role >= Role.Common) return 'common' as const;
  return 'unknown' as const;
}

/** Stored as unix seconds: `expired_time`, `redeemed_time`, `complete_time`… */
const isTimeField = (field: string) => field.endsWith('_time') || field === 'logs_before';

export interface ValueContext {
  readonly t: TFunction;
  readonly formatQuota: (quota: number) => string;
  readonly kind?: HistoryEntityKind;
}

function formatNumber(ctx: ValueContext, field: string, value: number): string {
  const { t, kind } = ctx;
  if (isTimeField(field)) return value < 0 ? t('history.never') : formatDateTime(value);
  if (field === 'status') {
    const key = kind ? STATUS_KEYS[kind]?.[value] : undefined;
    if (key) return t(key);
  }
  if (field === 'role') return t(`history.role.${roleKey(value)}`);
  if (field === 'type' && kind === 'channel') return CHANNEL_TYPES[value] ?? String(value);
  if (/quota/i.test(field)) return ctx.formatQuota(value);
  return String(value);
}

/** One stored value as a reader says it: names for codes, dates for times, 是/否 for flags. */
export function formatChangeValue(ctx: ValueContext, field: string, value: unknown): string {
  const { t } = ctx;
  if (isBlank(value)) return t('history.emptyValue');
  if (typeof value === 'boolean') return value ? t('history.yes') : t('history.no');
  if (typeof value === 'number') return formatNumber(ctx, field, value);
  if (Array.isArray(value))
    return value.map((item) => formatChangeValue(ctx, field, item)).join(', ');
  if (typeof value === 'string') {
    // Options store their switches as text.
    if (ctx.kind === 'option' && (value === 'true' || value === 'false'))
      return value === 'true' ? t('history.yes') : t('history.no');
    return value;
  }
  return JSON.stringify(value) ?? '';
}
