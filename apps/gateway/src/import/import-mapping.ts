import {
  Role,
  TOKEN_NEVER_EXPIRES,
  TOKEN_STATUSES,
  TokenStatus,
  UserStatus,
} from '@tollgate/contracts';
import {
  isEmailAddress,
  isIpOrCidr,
  type ExternalProvider,
  type NotifyType,
  type ImportSource,
  type UserImported,
} from '@tollgate/domain';
import { RowNotes } from './row-notes';
import type { SourceProject } from './source-database';
import { bool, int, present, rowIdOf, text } from './row-values';
import { mapUserSetting } from './user-setting-mapping';

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
const ROLES: ReadonlySet<number> = new Set(Object.values(Role));

/** A quantity that must not be negative: negatives come in as 0, reported. */
function quantity(value: unknown, field: string, notes: RowNotes): number {
  const n = int(value);
  if (n >= 0) return n;
  notes.changed(field, `${n} is negative: imported as 0`);
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
  const notes = new RowNotes(at);
  const passwordHash = passwordHashOf(row, notes);
  const role = roleOf(row, notes);
  const { status, deleted } = userStatusOf(project, row, notes);
  const email = text(row['email']);
  const emailValid = email !== '' && isEmailAddress(email);
  if (email !== '' && !emailValid) notes.changed('email', 'not an email address: kept unverified');
  const identities = identitiesOf(row, notes);
  const notifications = mapUserSetting(text(row['setting']), deleted, notes);
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
    balance: balanceOf(row, notes),
    notifications,
    items: notes.items,
  };
}

/** The source's bcrypt hash, kept as it is; anything else is dropped (the user resets it). */
function passwordHashOf(row: Row, notes: RowNotes): string {
  const password = text(row['password']);
  if (BCRYPT.test(password)) return password;
  notes.dropped('password', 'not a bcrypt hash: password sign-in needs a reset');
  return '';
}

function roleOf(row: Row, notes: RowNotes): number {
  const role = int(row['role']);
  if (ROLES.has(role)) return role;
  notes.changed('role', `unknown role ${role}: imported as ${Role.Common}`);
  return Role.Common;
}

/** one-api deletes by status 3 (and a deleted_<uuid> name); new-api by deleted_at. */
function userStatusOf(
  project: SourceProject,
  row: Row,
  notes: RowNotes,
): { readonly status: number; readonly deleted: boolean } {
  const status = int(row['status']);
  const deleted =
    (project === 'one-api' && status === UserStatus.Deregistered) || present(row['deleted_at']);
  if (status === UserStatus.Enabled || status === UserStatus.Disabled) return { status, deleted };
  if (!deleted) notes.changed('status', `unknown status ${status}: imported as disabled`);
  return { status: UserStatus.Disabled, deleted };
}

const IDENTITY_COLUMNS: ReadonlyArray<readonly [ExternalProvider, string]> = [
  ['github', 'github_id'],
  ['wechat', 'wechat_id'],
  ['telegram', 'telegram_id'],
  ['oidc', 'oidc_id'],
  ['linuxdo', 'linux_do_id'],
];

/** The sign-in providers' ids Tollgate knows; Lark's is dropped. */
function identitiesOf(row: Row, notes: RowNotes): Partial<Record<ExternalProvider, string>> {
  const identities: Partial<Record<ExternalProvider, string>> = {};
  for (const [provider, column] of IDENTITY_COLUMNS) {
    const id = text(row[column]);
    if (id !== '') identities[provider] = id;
  }
  if (text(row['lark_id']) !== '') notes.dropped('lark_id', 'Lark sign-in is not supported');
  return identities;
}

function balanceOf(row: Row, notes: RowNotes): BalanceFacts {
  return {
    quota: quantity(row['quota'], 'quota', notes),
    usedQuota: quantity(row['used_quota'], 'used_quota', notes),
    requestCount: quantity(row['request_count'], 'request_count', notes),
    affCount: quantity(row['aff_count'], 'aff_count', notes),
    affQuota: quantity(row['aff_quota'], 'aff_quota', notes),
    affHistoryQuota: quantity(row['aff_history'], 'aff_history', notes),
  };
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
  const notes = new RowNotes(at);
  if (!/^[0-9A-Za-z]{48}$/.test(key))
    notes.changed('key', 'not 48 letters and digits: kept as it is');
  let name = text(row['name']);
  if (name === '') {
    name = `token-${rowId}`;
    notes.changed('name', `empty: named ${name}`);
  }
  const status = tokenStatusOf(row, notes);
  const expiredTime = expiredTimeOf(row, notes);
  const limits = tokenLimitsOf(project, row, notes);
  return {
    token: {
      tokenId: rowId,
      userId: int(row['user_id']),
      key,
      name,
      createdTime: Math.max(0, int(row['created_time'])),
      expiredTime,
      remainQuota: quantity(row['remain_quota'], 'remain_quota', notes),
      unlimitedQuota: bool(row['unlimited_quota']),
      usedQuota: quantity(row['used_quota'], 'used_quota', notes),
      status,
      ...limits,
      group: project === 'new-api' ? text(row['group']) : '',
      deleted: present(row['deleted_at']),
      source: { project, table: 'tokens', rowId, importedAt },
    },
    items: notes.items,
  };
}

function tokenStatusOf(row: Row, notes: RowNotes): number {
  const status = int(row['status']);
  if (TOKEN_STATUSES.includes(status)) return status;
  notes.changed('status', `unknown status ${status}: imported as disabled`);
  return TokenStatus.Disabled;
}

/** Unix seconds, or never (-1); 0 and other negatives read as never. */
function expiredTimeOf(row: Row, notes: RowNotes): number {
  const expiredTime = int(row['expired_time'] ?? TOKEN_NEVER_EXPIRES);
  if (expiredTime >= TOKEN_NEVER_EXPIRES && expiredTime !== 0) return expiredTime;
  notes.changed('expired_time', `${expiredTime}: imported as never (${TOKEN_NEVER_EXPIRES})`);
  return TOKEN_NEVER_EXPIRES;
}

/** The token's model limits and allowed IPs; an entry that is not an IP or CIDR is dropped. */
function tokenLimitsOf(
  project: SourceProject,
  row: Row,
  notes: RowNotes,
): Pick<TokenFacts, 'modelLimitsEnabled' | 'modelLimits' | 'allowIps'> {
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
  for (const ip of ips.filter((ip) => !isIpOrCidr(ip)))
    notes.dropped('allow_ips', `${ip.slice(0, 60)} is not an IP or CIDR`);
  return { modelLimitsEnabled, modelLimits, allowIps: ips.filter((ip) => isIpOrCidr(ip)) };
}

export const isSkipped = <T extends object>(m: Mapped<T>): m is { readonly skipped: ReportItem } =>
  'skipped' in m;
