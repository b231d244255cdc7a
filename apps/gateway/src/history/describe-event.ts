import {
  RedemptionStatus,
  TokenStatus,
  TopUpStatus,
  UserStatus,
  type HistoryChangeDto,
} from '@tollgate/contracts';
import { maskWebhookUrl } from '../users/notification-settings';

/** An entity's visible fields as folded so far from its stream (what "before" is read from). */
export type FieldState = Readonly<Record<string, unknown>>;

export interface DescribedEvent {
  readonly changes: HistoryChangeDto[];
  /** Why, when the event says so ('' otherwise). */
  readonly reason: string;
  /** The fields after this event. */
  readonly next: FieldState;
}

type Data = Record<string, unknown>;

/** What an event sets: new field values, secrets that changed, explicit changes (deltas, from/to). */
interface EventEffect {
  readonly set?: Data;
  readonly secrets?: readonly string[];
  /**
   * For secrets re-sealed with a fresh IV on every save: the sealed hash per secret field; the
   * field counts as changed only when its hash differs from the one before.
   */
  readonly secretHashes?: Readonly<Record<string, string | null>>;
  readonly explicit?: readonly HistoryChangeDto[];
  readonly reason?: unknown;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** camelCase → snake_case: the API's field names (baseUrl → base_url). */
export const snakeCase = (name: string): string =>
  name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function snakeFields(data: unknown, omit: readonly string[] = []): Data {
  const out: Data = {};
  if (!data || typeof data !== 'object') return out;
  for (const [key, value] of Object.entries(data as Data))
    if (!omit.includes(key)) out[snakeCase(key)] = value;
  return out;
}

const sealedHash = (sealed: unknown): string | null =>
  sealed && typeof sealed === 'object' ? str((sealed as Data)['hash']) || null : null;

/**
 * Sealed hashes seen so far, kept in the folded fields under a symbol: carried from event to event
 * by the spread, never serialized (JSON.stringify skips symbol keys), never shown.
 */
const SECRET_HASHES = Symbol('secretHashes');
type HashBag = Readonly<Record<string, string | null>>;
const hashesOf = (fields: FieldState): HashBag =>
  ((fields as Record<symbol, unknown>)[SECRET_HASHES] as HashBag | undefined) ?? {};

const delta = (field: string, amount: number, before: unknown = null, after: unknown = null) =>
  ({ field, before, after, delta: amount }) as HistoryChangeDto;

function tokenSettings(d: Data): Data {
  const limits = (d['rateLimits'] ?? {}) as Data;
  return {
    ...snakeFields(d, [
      'tokenId',
      'userId',
      'sealedKey',
      'keyHash',
      'createdTime',
      'rateLimits',
      'status',
      'usedQuota',
      'deleted',
      'source',
    ]),
    rate_limit_rpm: limits['rpm'],
    rate_limit_tpm: limits['tpm'],
    rate_limit_concurrency: limits['concurrency'],
  };
}

/** "imported from one-api at 2026-…": the first line of an imported entity's history. */
function importedFrom(d: Data): string {
  const source = (d['source'] ?? {}) as Data;
  return `imported from ${str(source['project'])} at ${str(source['importedAt'])}`;
}

/** What a poll changed on a task: its status and progress. */
function snapshotEffect(d: Data): EventEffect {
  const snapshot = (d['snapshot'] ?? {}) as Data;
  return {
    set: {
      status: snapshot['status'],
      progress: snapshot['progress'],
      ...(str(snapshot['failReason']) ? { fail_reason: snapshot['failReason'] } : {}),
    },
  };
}

/** One pure mapping per event type. Unknown types map to no changes (never a crash). */
const EFFECTS: Readonly<Record<string, (d: Data) => EventEffect>> = {
  // user-<id>
  UserRegistered: (d) => ({
    set: {
      username: d['username'],
      display_name: d['displayName'],
      role: d['role'],
      group: d['group'],
      email: d['email'],
      status: UserStatus.Enabled,
      inviter_id: d['inviterId'],
    },
    secrets: ['password'],
    reason: d['source'],
  }),
  UserImported: (d) => {
    const identities = (d['identities'] ?? {}) as Data;
    return {
      set: {
        username: d['username'],
        display_name: d['displayName'],
        role: d['role'],
        group: d['group'],
        email: d['email'],
        status: d['status'],
        inviter_id: d['inviterId'],
        aff_code: d['affCode'],
        ...Object.fromEntries(Object.entries(identities).map(([p, id]) => [`${p}_id`, id])),
        ...(d['deleted'] === true ? { deleted: true } : {}),
      },
      secrets: [
        ...(str(d['passwordHash']) ? ['password'] : []),
        ...(str(d['accessTokenHash']) ? ['access_token'] : []),
      ],
      reason: importedFrom(d),
    };
  },
  UserEmailBound: (d) => ({
    explicit: [{ field: 'email', before: str(d['previous']) || null, after: d['email'] }],
  }),
  UserExternalIdentityBound: (d) => ({ set: { [`${str(d['provider'])}_id`]: d['externalId'] } }),
  UserPasswordChanged: (d) => ({ secrets: ['password'], reason: d['reason'] }),
  UserProfileUpdated: (d) => ({ set: snakeFields(d, ['userId']) }),
  UserRenamed: (d) => ({ set: { username: d['to'] } }),
  UserGroupChanged: (d) => ({ set: { group: d['to'] } }),
  UserRoleChanged: (d) => ({ set: { role: d['to'] } }),
  UserStatusChanged: (d) => ({ set: { status: d['to'] } }),
  UserDeregistered: (d) => ({ set: { deleted: true }, reason: d['by'] }),
  UserAccessTokenIssued: () => ({ secrets: ['access_token'] }),
  UserNotificationSettingsChanged: (d) => ({
    set: {
      notify_type: d['notifyType'],
      quota_warning_threshold: d['quotaWarningThreshold'],
      // The URL can carry a token (Slack, Discord): history shows its scheme and host only.
      webhook_url: maskWebhookUrl(str(d['webhookUrl'])),
      notification_email: d['notificationEmail'],
      accept_admin_alerts: d['acceptAdminAlerts'],
    },
    secretHashes: { webhook_secret: sealedHash(d['sealedWebhookSecret']) },
  }),
  // billing-<id>: amounts, folded as deltas (docs/ledger.md)
  QuotaGranted: (d) => ({ explicit: [delta('quota', num(d['amount']))], reason: d['reason'] }),
  QuotaAdjusted: (d) => ({
    explicit: [delta('quota', num(d['delta']), d['from'], d['to'])],
    reason: d['note'],
  }),
  InviterRewarded: (d) => ({
    explicit: [delta('aff_quota', num(d['amount'])), delta('aff_count', 1)],
    reason: 'invitee',
  }),
  AffQuotaTransferred: (d) => ({
    explicit: [delta('aff_quota', -num(d['amount'])), delta('quota', num(d['amount']))],
  }),
  BalanceImported: (d) => ({
    explicit: [
      delta('quota', num(d['quota'])),
      delta('used_quota', num(d['usedQuota'])),
      delta('request_count', num(d['requestCount'])),
      delta('aff_count', num(d['affCount'])),
      delta('aff_quota', num(d['affQuota'])),
      delta('aff_history_quota', num(d['affHistoryQuota'])),
    ].filter((change) => change.delta !== 0),
    reason: importedFrom(d),
  }),
  // token-<id>
  TokenImported: (d) => ({
    set: {
      ...tokenSettings(d),
      status: d['status'],
      used_quota: d['usedQuota'],
      ...(d['deleted'] === true ? { deleted: true } : {}),
    },
    secrets: ['key'],
    reason: importedFrom(d),
  }),
  TokenCreated: (d) => ({
    set: { ...tokenSettings(d), status: TokenStatus.Enabled },
    secrets: ['key'],
  }),
  TokenUpdated: (d) => ({ set: tokenSettings(d) }),
  TokenStatusChanged: (d) => ({ set: { status: d['to'] }, reason: d['reason'] }),
  TokenDeleted: () => ({ set: { deleted: true } }),
  // channel-<id>
  ChannelCreated: (d) => ({
    set: { ...snakeFields(d['config']), status: d['status'] },
    secrets: ['key'],
    reason: typeof d['copiedFrom'] === 'number' ? `copied from ${d['copiedFrom']}` : '',
  }),
  ChannelImported: (d) => ({
    set: {
      ...snakeFields(d['config']),
      status: d['status'],
      used_quota: d['usedQuota'],
      balance: d['balance'],
    },
    secrets: ['key'],
    reason: importedFrom(d),
  }),
  ChannelUpdated: (d) => ({
    set: snakeFields(d['changes']),
    secrets: d['key'] ? ['key'] : [],
  }),
  ChannelStatusChanged: (d) => ({ set: { status: d['to'] }, reason: d['reason'] }),
  ChannelTested: (d) => ({
    set: { test_time: d['testTime'], response_time: d['responseTimeMs'] },
    reason: d['success'] ? '' : str(d['message']),
  }),
  ChannelBalanceUpdated: (d) => ({
    set: { balance: d['balance'], balance_updated_time: d['updatedTime'] },
  }),
  ChannelDeleted: () => ({ set: { deleted: true } }),
  // redemption-<id>
  RedemptionCreated: (d) => ({
    set: { name: d['name'], quota: d['quota'], status: RedemptionStatus.Unused },
    secrets: ['key'],
  }),
  RedemptionImported: (d) => ({
    set: {
      name: d['name'],
      quota: d['quota'],
      status: d['status'],
      ...(num(d['redeemedTime']) > 0 ? { redeemed_time: d['redeemedTime'] } : {}),
      ...(num(d['usedUserId']) > 0 ? { used_user_id: d['usedUserId'] } : {}),
      ...(d['deleted'] === true ? { deleted: true } : {}),
    },
    secrets: ['key'],
    reason: importedFrom(d),
  }),
  RedemptionUpdated: (d) => ({ set: { name: d['name'], quota: d['quota'] } }),
  RedemptionStatusChanged: (d) => ({ set: { status: d['to'] } }),
  RedemptionRedeemed: (d) => ({
    set: {
      status: RedemptionStatus.Used,
      used_user_id: d['userId'],
      redeemed_time: d['redeemedTime'],
    },
  }),
  RedemptionDeleted: () => ({ set: { deleted: true } }),
  // topup-<tradeNo>
  TopUpOrderCreated: (d) => ({
    set: {
      user_id: d['userId'],
      amount: d['amount'],
      money: d['money'],
      quota: d['quota'],
      payment_method: d['paymentMethod'],
      status: TopUpStatus.Pending,
    },
  }),
  TopUpOrderImported: (d) => ({
    set: {
      user_id: d['userId'],
      amount: d['amount'],
      money: d['money'],
      quota: d['quota'],
      status: d['status'],
    },
    reason: importedFrom(d),
  }),
  TopUpOrderPaid: (d) => ({
    set: {
      status: TopUpStatus.Success,
      complete_time: d['paidTime'],
      provider_reference: d['providerReference'],
    },
    reason: d['via'] === 'admin' ? 'completed by an administrator' : '',
  }),
  TopUpOrderExpired: () => ({ set: { status: TopUpStatus.Expired } }),
  TopUpOrderFailed: (d) => ({ set: { status: TopUpStatus.Failed }, reason: str(d['reason']) }),
  // task-<key> (imported new-api tasks; the relay's own tasks are described by the task logs)
  TaskImported: (d) => ({
    set: {
      platform: d['platform'],
      upstream_task_id: d['upstreamTaskId'],
      user_id: d['userId'],
      channel_id: d['channelId'],
      action: d['action'],
      quota: d['quota'],
      status: d['status'],
      progress: d['progress'],
      ...(str(d['failReason']) ? { fail_reason: d['failReason'] } : {}),
    },
    reason: importedFrom(d),
  }),
  TaskProgressed: (d) => snapshotEffect(d),
  TaskSucceeded: (d) => snapshotEffect(d),
  TaskFailed: (d) => ({ ...snapshotEffect(d), reason: str(d['reason']) }),
  TaskRefunded: (d) => ({ explicit: [delta('refund_quota', num(d['quota']))] }),
  // options, logs
  OptionChanged: (d) => ({
    explicit: [{ field: str(d['key']), before: d['previous'] ?? null, after: d['value'] }],
  }),
  SecretOptionChanged: (d) => ({ secrets: [str(d['key'])] }),
  LogsCleared: (d) => ({
    explicit: [{ field: 'logs_before', before: null, after: d['before'] }],
    reason: `${num(d['count'])} rows`,
  }),
};

/** null, '', [] and {}: nothing, however it is stored ('' → [] on creation is no change). */
const isBlank = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

const same = (a: unknown, b: unknown): boolean =>
  (isBlank(a) && isBlank(b)) || JSON.stringify(a) === JSON.stringify(b);

/**
 * "What changed" for one event, given the entity's fields before it: before → after per field,
 * secrets as "changed" only. Fields whose value did not change (or went from empty to empty) are
 * left out.
 */
export function describeEvent(type: string, data: unknown, prior: FieldState): DescribedEvent {
  const effect = EFFECTS[type]?.(data && typeof data === 'object' ? (data as Data) : {}) ?? {};
  const changes: HistoryChangeDto[] = [...(effect.explicit ?? [])];
  const next: Record<string, unknown> = { ...prior };
  for (const [field, after] of Object.entries(effect.set ?? {})) {
    if (after === undefined) continue;
    const before = prior[field] ?? null;
    next[field] = after;
    if (!same(before, after)) changes.push({ field, before, after });
  }
  for (const field of effect.secrets ?? [])
    changes.push({ field, before: null, after: 'changed', secret: true });
  if (effect.secretHashes) {
    const hashes = hashesOf(prior);
    for (const [field, hash] of Object.entries(effect.secretHashes))
      if ((hashes[field] ?? null) !== hash)
        changes.push({ field, before: null, after: 'changed', secret: true });
    (next as Record<symbol, unknown>)[SECRET_HASHES] = { ...hashes, ...effect.secretHashes };
  }
  for (const change of effect.explicit ?? [])
    if (change.after !== null) next[change.field] = change.after;
  const reason = effect.reason;
  return { changes, reason: typeof reason === 'string' ? reason : '', next };
}

/** Describes a stream's events in order, each against the fields folded before it. */
export function describeStream(
  events: ReadonlyArray<{ readonly type: string; readonly data: unknown }>,
): DescribedEvent[] {
  let fields: FieldState = {};
  return events.map((event) => {
    const described = describeEvent(event.type, event.data, fields);
    fields = described.next;
    return described;
  });
}
