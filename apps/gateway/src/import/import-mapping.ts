import {
  isEmailAddress,
  isIpOrCidr,
  WEBHOOK_URL_MAX_LENGTH,
  type ExternalProvider,
  type NotifyType,
  type ImportSource,
  type UserImported,
} from '@tollgate/domain';
import type { SourceProject } from './source-database';
import { bool, int, present, rowIdOf, text } from './row-values';

type Row = Record<string, unknown>;

/** One line of the report: a row (or a field of it) changed or dropped, and why. Never a secret. */
export interface ReportItem {
  readonly table: string;
  readonly rowId: number;
  readonly action: 'changed' | 'dropped' | 'skipped';
  readonly field?: string;
  readonly reason: string;
}

export type UserFacts = Omit<UserImported['data'], 'accessTokenHash'> & { accessToken: string };
export interface BalanceFacts {
  readonly quota: number;
  readonly usedQuota: number;
  readonly requestCount: number;
  readonly affCount: number;
  readonly affQuota: number;
  readonly affHistoryQuota: number;
}
/**
 * A user's notification settings as the console's save takes them (new-api `setting`). The
 * webhook secret is in clear here only: the writer seals it; it is never reported.
 */
export interface NotificationFacts {
  readonly notifyType: NotifyType;
  /** Quota units; null = the QuotaRemindThreshold option. */
  readonly quotaWarningThreshold: number | null;
  readonly webhookUrl: string;
  /** '' = none. */
  readonly webhookSecret: string;
  /** '' = the user's bound email. */
  readonly notificationEmail: string;
}
export interface MappedUser {
  readonly user: UserFacts;
  readonly balance: BalanceFacts;
  /** null: nothing to set (no setting, a deleted user, every field dropped). */
  readonly notifications: NotificationFacts | null;
  readonly items: ReportItem[];
}

export interface TokenFacts {
  readonly tokenId: number;
  readonly userId: number;
  /** The source's key (48 characters, no `sk-`): sealed and hashed by the caller, never reported. */
  readonly key: string;
  readonly name: string;
  readonly createdTime: number;
  readonly expiredTime: number;
  readonly remainQuota: number;
  readonly unlimitedQuota: boolean;
  readonly usedQuota: number;
  readonly status: number;
  readonly modelLimitsEnabled: boolean;
  readonly modelLimits: string[];
  readonly allowIps: string[];
  readonly group: string;
  readonly deleted: boolean;
  readonly source: ImportSource;
}
export interface MappedToken {
  readonly token: TokenFacts;
  readonly items: ReportItem[];
}

export type Mapped<T> = T | { readonly skipped: ReportItem };

const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const ROLES = new Set([0, 1, 10, 100]);

/** A quantity that must not be negative: negatives come in as 0, reported. */
function quantity(
  value: unknown,
  field: string,
  at: Omit<ReportItem, 'action' | 'reason'>,
  items: ReportItem[],
): number {
  const n = int(value);
  if (n >= 0) return n;
  items.push({ ...at, action: 'changed', field, reason: `${n} is negative: imported as 0` });
  return 0;
}

/** One users row as UserImported + BalanceImported facts, or why it is skipped. */
export function mapUserRow(
  project: SourceProject,
  row: Row,
  importedAt: string,
): Mapped<MappedUser> {
  const id = rowIdOf('users', row);
  if ('skipped' in id) return id;
  const { rowId, at } = id;
  const username = text(row['username']);
  if (username === '') return { skipped: { ...at, action: 'skipped', reason: 'empty username' } };
  const items: ReportItem[] = [];
  const password = text(row['password']);
  let passwordHash = '';
  if (BCRYPT.test(password)) passwordHash = password;
  else
    items.push({
      ...at,
      action: 'dropped',
      field: 'password',
      reason: 'not a bcrypt hash: password sign-in needs a reset',
    });
  let role = int(row['role']);
  if (!ROLES.has(role)) {
    items.push({
      ...at,
      action: 'changed',
      field: 'role',
      reason: `unknown role ${role}: imported as 1`,
    });
    role = 1;
  }
  let status = int(row['status']);
  // one-api deletes by status 3 (and a deleted_<uuid> name); new-api by deleted_at.
  const deleted = (project === 'one-api' && status === 3) || present(row['deleted_at']);
  if (status !== 1 && status !== 2) {
    if (!deleted)
      items.push({
        ...at,
        action: 'changed',
        field: 'status',
        reason: `unknown status ${status}: imported as disabled`,
      });
    status = 2;
  }
  const email = text(row['email']);
  const emailValid = email !== '' && isEmailAddress(email);
  if (email !== '' && !emailValid)
    items.push({
      ...at,
      action: 'changed',
      field: 'email',
      reason: 'not an email address: kept unverified',
    });
  const identities: Partial<Record<ExternalProvider, string>> = {};
  const columns: Array<[ExternalProvider, string]> = [
    ['github', 'github_id'],
    ['wechat', 'wechat_id'],
    ['telegram', 'telegram_id'],
    ['oidc', 'oidc_id'],
    ['linuxdo', 'linux_do_id'],
  ];
  for (const [provider, column] of columns) {
    const id = text(row[column]);
    if (id !== '') identities[provider] = id;
  }
  if (text(row['lark_id']) !== '')
    items.push({
      ...at,
      action: 'dropped',
      field: 'lark_id',
      reason: 'Lark sign-in is not supported',
    });
  const notifications = mapUserSetting(text(row['setting']), deleted, at, items);
  const balance: BalanceFacts = {
    quota: quantity(row['quota'], 'quota', at, items),
    usedQuota: quantity(row['used_quota'], 'used_quota', at, items),
    requestCount: quantity(row['request_count'], 'request_count', at, items),
    affCount: quantity(row['aff_count'], 'aff_count', at, items),
    affQuota: quantity(row['aff_quota'], 'aff_quota', at, items),
    affHistoryQuota: quantity(row['aff_history'], 'aff_history', at, items),
  };
  return {
    user: {
      userId: rowId,
      username,
      displayName: text(row['display_name']),
      passwordHash,
      role,
      status,
      group: text(row['group']) || 'default',
      email: emailValid ? email.toLowerCase() : email,
      emailVerified: emailValid,
      identities,
      accessToken: text(row['access_token']),
      affCode: text(row['aff_code']),
      inviterId: Math.max(0, int(row['inviter_id'])),
      deleted,
      source: { project, table: 'users', rowId, importedAt },
    },
    balance,
    notifications,
    items,
  };
}

/** new-api's `setting` keys Tollgate keeps (dto.UserSetting, v0.6.x); every other key is dropped. */
const NOTIFICATION_KEYS = [
  'notify_type',
  'quota_warning_threshold',
  'webhook_url',
  'webhook_secret',
  'notification_email',
] as const;

/**
 * new-api's per-user `setting` JSON text as the notification settings the console saves, each
 * field validated as the console validates it (an invalid one is dropped, reported). new-api read
 * a threshold of 0 (or none) as its QuotaRemindThreshold, an empty notify type as email, and
 * truncated a fractional threshold: the same here. null when there is nothing to keep (no setting,
 * none of its keys, a deleted user).
 */
export function mapUserSetting(
  setting: string,
  deleted: boolean,
  at: Omit<ReportItem, 'action' | 'reason'>,
  items: ReportItem[],
): NotificationFacts | null {
  if (setting.trim() === '') return null;
  const drop = (field: string, reason: string) =>
    items.push({ ...at, action: 'dropped', field, reason });
  let parsed: unknown;
  try {
    parsed = JSON.parse(setting);
  } catch {
    drop('setting', 'not valid JSON');
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    drop('setting', 'not a JSON object');
    return null;
  }
  const object = parsed as Record<string, unknown>;
  const keys = Object.keys(object);
  const known = new Set<string>(NOTIFICATION_KEYS);
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length > 0) {
    const listed = unknown.slice(0, 10).map((k) => k.slice(0, 60));
    drop(
      'setting',
      `keys Tollgate has no setting for: ${listed.join(', ')}${unknown.length > 10 ? ', …' : ''}`,
    );
  }
  if (!keys.some((k) => known.has(k))) return null;
  if (deleted) {
    drop('setting', 'the user is deleted: notification settings not imported');
    return null;
  }
  let kept = false;
  const stringOf = (key: string): string | null => {
    const value = object[key];
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value.trim();
    drop(`setting.${key}`, 'not a string');
    return null;
  };

  let webhookUrl = stringOf('webhook_url') ?? '';
  if (webhookUrl !== '' && !isHttpUrl(webhookUrl)) {
    drop(
      'setting.webhook_url',
      `not an http(s) URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters`,
    );
    webhookUrl = '';
  }
  if (webhookUrl !== '') kept = true;

  const webhookSecret = stringOf('webhook_secret') ?? '';
  if (webhookSecret !== '') kept = true;

  let notificationEmail = stringOf('notification_email') ?? '';
  if (notificationEmail !== '' && !isEmailAddress(notificationEmail)) {
    drop('setting.notification_email', 'not an email address');
    notificationEmail = '';
  }
  if (notificationEmail !== '') kept = true;

  let quotaWarningThreshold: number | null = null;
  const threshold = object['quota_warning_threshold'];
  if (threshold !== undefined && threshold !== null) {
    if (
      typeof threshold === 'number' &&
      Number.isFinite(threshold) &&
      threshold >= 0 &&
      threshold <= Number.MAX_SAFE_INTEGER
    ) {
      const whole = Math.trunc(threshold);
      quotaWarningThreshold = whole === 0 ? null : whole;
      kept = true;
    } else drop('setting.quota_warning_threshold', 'not a non-negative number');
  }

  let notifyType: NotifyType = 'email';
  const type = stringOf('notify_type');
  if (type === 'webhook' || type === 'email') {
    notifyType = type;
    kept = true;
  } else if (type !== null && type !== '')
    drop('setting.notify_type', `${type.slice(0, 20)} is not email or webhook: email used`);
  if (notifyType === 'webhook' && webhookUrl === '') {
    items.push({
      ...at,
      action: 'changed',
      field: 'setting.notify_type',
      reason: 'webhook without a valid webhook URL: email used',
    });
    notifyType = 'email';
  }
  if (!kept) return null;
  return { notifyType, quotaWarningThreshold, webhookUrl, webhookSecret, notificationEmail };
}

function isHttpUrl(value: string): boolean {
  if (value.length > WEBHOOK_URL_MAX_LENGTH || !/^https?:\/\//i.test(value)) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function splitList(value: string, separator: RegExp): string[] {
  return [
    ...new Set(
      value
        .split(separator)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** One tokens row as TokenImported facts, or why it is skipped. */
export function mapTokenRow(
  project: SourceProject,
  row: Row,
  importedAt: string,
): Mapped<MappedToken> {
  const id = rowIdOf('tokens', row);
  if ('skipped' in id) return id;
  const { rowId, at } = id;
  // The source stores the key without `sk-` (clients send sk-<key>), as Tollgate does.
  let key = text(row['key']);
  if (key.startsWith('sk-')) key = key.slice(3);
  if (key === '') return { skipped: { ...at, action: 'skipped', reason: 'empty key' } };
  const items: ReportItem[] = [];
  if (!/^[0-9A-Za-z]{48}$/.test(key))
    items.push({
      ...at,
      action: 'changed',
      field: 'key',
      reason: 'not 48 letters and digits: kept as it is',
    });
  let name = text(row['name']);
  if (name === '') {
    name = `token-${rowId}`;
    items.push({ ...at, action: 'changed', field: 'name', reason: `empty: named ${name}` });
  }
  let status = int(row['status']);
  if (status < 1 || status > 4) {
    items.push({
      ...at,
      action: 'changed',
      field: 'status',
      reason: `unknown status ${status}: imported as disabled`,
    });
    status = 2;
  }
  let expiredTime = int(row['expired_time'] ?? -1);
  if (expiredTime < -1 || expiredTime === 0) {
    items.push({
      ...at,
      action: 'changed',
      field: 'expired_time',
      reason: `${expiredTime}: imported as never (-1)`,
    });
    expiredTime = -1;
  }
  let modelLimits: string[];
  let modelLimitsEnabled: boolean;
  let ips: string[];
  if (project === 'one-api') {
    // one-api: `models` comma list (empty = every model), `subnet` comma-separated CIDRs.
    modelLimits = splitList(text(row['models']), /,/);
    modelLimitsEnabled = modelLimits.length > 0;
    ips = splitList(text(row['subnet']), /,/);
  } else {
    modelLimits = splitList(text(row['model_limits']), /,/);
    modelLimitsEnabled = bool(row['model_limits_enabled']);
    ips = splitList(text(row['allow_ips']), /\r?\n/);
  }
  const allowIps = ips.filter((ip) => isIpOrCidr(ip));
  for (const ip of ips.filter((ip) => !isIpOrCidr(ip)))
    items.push({
      ...at,
      action: 'dropped',
      field: 'allow_ips',
      reason: `${ip.slice(0, 60)} is not an IP or CIDR`,
    });
  return {
    token: {
      tokenId: rowId,
      userId: int(row['user_id']),
      key,
      name,
      createdTime: Math.max(0, int(row['created_time'])),
      expiredTime,
      remainQuota: quantity(row['remain_quota'], 'remain_quota', at, items),
      unlimitedQuota: bool(row['unlimited_quota']),
      usedQuota: quantity(row['used_quota'], 'used_quota', at, items),
      status,
      modelLimitsEnabled,
      modelLimits,
      allowIps,
      group: project === 'new-api' ? text(row['group']) : '',
      deleted: present(row['deleted_at']),
      source: { project, table: 'tokens', rowId, importedAt },
    },
    items,
  };
}

export const isSkipped = <T extends object>(m: Mapped<T>): m is { readonly skipped: ReportItem } =>
  'skipped' in m;
