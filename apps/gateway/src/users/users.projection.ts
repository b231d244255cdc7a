import { eventTimeMs, type RecordedEvent } from '@tollgate/event-store';
import type { Collection, Projection, Update } from '@tollgate/read-store';
import {
  BILLING_EVENT_TYPES,
  IDENTITY_FIELD,
  TASK_REFUND_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  USER_EVENT_TYPES,
  type BillingEvent,
  type TaskRefunded,
  type UsageEvent,
  type UsageSummarized,
  type UserEvent,
} from '@tollgate/domain';
import { UserStatus } from '@tollgate/contracts';
import { SESSION_MAX_AGE_S } from '../auth/session-codec';
import { SummaryMarkers } from '../usage/summary-markers';
import { sumRows, USAGE_SUMMARY_EVENT_TYPES } from '../usage/summary-sources';
import { notificationSettingText } from './notification-settings';
import { USERS, type UserDocument } from './user.document';

/** The usage streams whose receipts the users read model counted (the reader rule). */
const summaryMarkers = new SummaryMarkers('users_usage_sources');

/** users: one document per user from the user-<id> and billing-<id> streams. */
export const usersProjection: Projection = {
  name: 'users',
  // 2: sessions_valid_after, revoked_sessions, access tokens revoked by resets and disables,
  //    email_verified, registration_pending.
  // 3: oidc_id, linux_do_id and setting on every row (new-api's user fields).
  // 4: TaskRefunded gives a failed task's charge back (quota, used_quota, request_count).
  // 5: UserImported / BalanceImported (one-api / new-api import); a `rehash` keeps the sessions.
  // 6: UsageSummarized (retention) counted when none of its source's receipts were.
  version: 6,
  collections: [
    {
      name: USERS,
      indexes: [
        { fields: { username_lower: 1 }, unique: true },
        { fields: { aff_code: 1 } },
        { fields: { access_token_hash: 1 } },
        { fields: { group: 1 } },
        { fields: { email: 1 } },
        { fields: { registration_pending: 1 } },
        { fields: { id: 1 } },
        // Third-party sign-in looks the bound user up by provider id.
        { fields: { github_id: 1 } },
        { fields: { wechat_id: 1 } },
        { fields: { telegram_id: 1 } },
        { fields: { oidc_id: 1 } },
        { fields: { linux_do_id: 1 } },
      ],
      // The console's user search (substring, case-insensitive) goes through a trigram index.
      search: ['username', 'display_name', 'email'],
    },
    summaryMarkers.spec,
  ],
  eventTypes: [
    ...USER_EVENT_TYPES,
    ...BILLING_EVENT_TYPES,
    ...USAGE_EVENT_TYPES,
    ...TASK_REFUND_EVENT_TYPES,
    ...USAGE_SUMMARY_EVENT_TYPES,
  ],
  async apply(event, session) {
    const users = session.collection<UserDocument>(USERS);
    if (event.type === 'UsageSummarized') {
      const summary = (event as unknown as UsageSummarized).data;
      if (!(await summaryMarkers.counts(summary, session))) return;
      const update = guardedWriter(users, event).update;
      for (const [userId, sum] of sumRows(summary.rows, (row) => row.userId))
        await update(String(userId), {
          $inc: { quota: -sum.quota, used_quota: sum.quota, request_count: sum.requests },
        });
      return;
    }
    const domainEvent = { type: event.type, data: event.data } as UserEvent | BillingEvent;
    await applyUserEvent(domainEvent, guardedWriter(users, event), eventTimeMs(event), users);
  },
  // The usage receipts, at relay rates: a batch's receipts are one guarded write per user. A task
  // refund is the inverse of its charge's receipt, merged the same way.
  batched: {
    eventTypes: [...USAGE_EVENT_TYPES, ...TASK_REFUND_EVENT_TYPES],
    apply(event, writes, session) {
      const position = { position: Number(event.position.commit) };
      if (event.type === 'TaskRefunded') {
        const { data } = event as unknown as TaskRefunded;
        writes.update(
          USERS,
          String(data.userId),
          { $inc: { quota: data.quota, used_quota: -data.quota, request_count: -1 } },
          position,
        );
        return;
      }
      const { data } = event as unknown as UsageEvent;
      summaryMarkers.receipt(event, writes, session);
      writes.update(
        USERS,
        String(data.userId),
        { $inc: { quota: -data.quota, used_quota: data.quota, request_count: 1 } },
        position,
      );
    },
  },
};

/**
 * Writes that apply at most once per document even without transactions (MongoDB without a
 * replica set): each document remembers the `$all` position of the last event applied to it.
 */
function guardedWriter(users: Collection<UserDocument>, event: RecordedEvent) {
  const position = Number(event.position.commit);
  return {
    put: (doc: UserDocument) => users.put({ ...doc, source_position: position }),
    update: (id: string, update: Update) =>
      users.updateMany(
        { _id: id, source_position: { $lt: position } },
        { ...update, $set: { ...update.$set, source_position: position } },
      ),
  };
}

/** Logouts remembered per user; beyond this the oldest revocation is dropped. */
const MAX_REVOKED_SESSIONS = 50;
const SESSION_LIFETIME_MS = SESSION_MAX_AGE_S * 1000;

type UserWriter = ReturnType<typeof guardedWriter>;

/** One event's change to the users read model. */
interface UserStep<E> {
  readonly id: string;
  readonly event: E;
  readonly users: UserWriter;
  /** When it happened (ms). */
  readonly at: number;
  readonly collection: Collection<UserDocument>;
}

type EventOf<T extends string> = Extract<UserEvent | BillingEvent, { type: T }>;

async function applyUserEvent(
  event: UserEvent | BillingEvent,
  users: UserWriter,
  at: number,
  collection: Collection<UserDocument>,
): Promise<void> {
  const step = { id: String(event.data.userId), event, users, at, collection };
  switch (event.type) {
    case 'UserRegistered':
      return register(step as UserStep<typeof event>);
    case 'UserImported':
      return importUser(step as UserStep<typeof event>);
    case 'UserPasswordChanged':
      return changePassword(step as UserStep<typeof event>);
    case 'UserSignedOut':
      return signOut(step as UserStep<typeof event>);
    case 'QuotaGranted':
    case 'QuotaAdjusted':
    case 'InviterRewarded':
    case 'AffQuotaTransferred':
    case 'BalanceImported':
      await users.update(step.id, { $inc: balanceChange(event) });
      return;
    default:
      return applyProfileChange(step);
  }
}

/** Registration is always appended before the user's billing events, so it creates the document. */
async function register({ id, event, users, at }: UserStep<EventOf<'UserRegistered'>>) {
  const d = event.data;
  await users.put(
    newUserDocument(id, at, {
      username: d.username,
      display_name: d.displayName,
      password_hash: d.passwordHash,
      role: d.role,
      group: d.group,
      email: d.email,
      email_verified: d.emailVerified === true,
      registration_pending: d.completionFollows === true,
      aff_code: d.affCode,
      inviter_id: d.inviterId,
    }),
  );
}

/** An imported user; the balances follow on billing-<id> (BalanceImported). */
async function importUser({ id, event, users, at }: UserStep<EventOf<'UserImported'>>) {
  const d = event.data;
  await users.put(
    newUserDocument(id, at, {
      username: d.username,
      display_name: d.displayName,
      password_hash: d.passwordHash,
      role: d.role,
      status: d.status,
      group: d.group,
      email: d.email,
      email_verified: d.emailVerified,
      github_id: d.identities.github ?? '',
      wechat_id: d.identities.wechat ?? '',
      telegram_id: d.identities.telegram ?? '',
      oidc_id: d.identities.oidc ?? '',
      linux_do_id: d.identities.linuxdo ?? '',
      aff_code: d.affCode,
      inviter_id: d.inviterId,
      access_token_hash: d.deleted ? '' : d.accessTokenHash,
      DeletedAt: d.deleted ? d.source.importedAt : null,
    }),
  );
}

async function changePassword({ id, event, users, at }: UserStep<EventOf<'UserPasswordChanged'>>) {
  if (event.data.reason === 'rehash') {
    // The same password under our own hash: the sessions and the access token stay.
    await users.update(id, { $set: { password_hash: event.data.passwordHash } });
    return;
  }
  // Every session ends; a reset by an administrator also voids the system access token.
  await users.update(id, {
    $set: {
      password_hash: event.data.passwordHash,
      sessions_valid_after: at,
      ...(event.data.reason === 'self' ? {} : { access_token_hash: '' }),
    },
  });
}

/** A logout is remembered (bounded); a forgotten one must not bring its session back. */
async function signOut({ id, event, users, at, collection }: UserStep<EventOf<'UserSignedOut'>>) {
  const doc = await collection.get(id);
  if (!doc) return;
  const { sessionId, issuedAt } = event.data;
  const kept = (doc.revoked_sessions ?? []).filter(
    (s) => s.issued_at > at - SESSION_LIFETIME_MS && s.id !== sessionId,
  );
  kept.push({ id: sessionId, issued_at: issuedAt });
  const dropped = kept.splice(0, Math.max(0, kept.length - MAX_REVOKED_SESSIONS));
  // A forgotten revocation must not bring its session back: void everything up to it instead.
  const validAfter = Math.max(
    doc.sessions_valid_after ?? 0,
    ...dropped.map((s) => s.issued_at + 1),
  );
  await users.update(id, {
    $set: { revoked_sessions: kept, sessions_valid_after: validAfter },
  });
}

/** The balances a billing event moves (each a delta: charges recorded meanwhile stay counted). */
function balanceChange(
  event: EventOf<
    'QuotaGranted' | 'QuotaAdjusted' | 'InviterRewarded' | 'AffQuotaTransferred' | 'BalanceImported'
  >,
): Record<string, number> {
  switch (event.type) {
    case 'QuotaGranted':
      return { quota: event.data.amount };
    case 'QuotaAdjusted':
      return { quota: event.data.delta };
    case 'InviterRewarded':
      return {
        aff_count: 1,
        aff_quota: event.data.amount,
        aff_history_quota: event.data.amount,
      };
    case 'AffQuotaTransferred':
      return { aff_quota: -event.data.amount, quota: event.data.amount };
    case 'BalanceImported': {
      const d = event.data;
      return {
        quota: d.quota,
        used_quota: d.usedQuota,
        request_count: d.requestCount,
        aff_count: d.affCount,
        aff_quota: d.affQuota,
        aff_history_quota: d.affHistoryQuota,
      };
    }
  }
}

/** The events that set fields of the profile, the role, the status or the bindings. */
async function applyProfileChange({ id, event, users, at }: UserStep<UserEvent | BillingEvent>) {
  const set = profileFields(event, at);
  if (set) await users.update(id, { $set: set });
}

function profileFields(
  event: UserEvent | BillingEvent,
  at: number,
): Record<string, unknown> | null {
  switch (event.type) {
    case 'UserProfileUpdated': {
      const set: Record<string, unknown> = {};
      if (event.data.displayName !== undefined) set['display_name'] = event.data.displayName;
      if (event.data.remark !== undefined) set['remark'] = event.data.remark;
      return set;
    }
    case 'UserRenamed':
      return { username: event.data.to, username_lower: event.data.to.toLowerCase() };
    case 'UserGroupChanged':
      return { group: event.data.to };
    case 'UserRoleChanged':
      // A demotion ends the sessions that were opened with more power; a promotion keeps them.
      return {
        role: event.data.to,
        ...(event.data.to < event.data.from ? { sessions_valid_after: at } : {}),
      };
    case 'UserStatusChanged':
      return {
        status: event.data.to,
        ...(event.data.to !== UserStatus.Enabled
          ? { sessions_valid_after: at, access_token_hash: '' }
          : {}),
      };
    case 'UserDeregistered':
      return {
        DeletedAt: new Date(at).toISOString(),
        access_token_hash: '',
        sessions_valid_after: at,
      };
    case 'UserRegistrationCompleted':
      return { registration_pending: false };
    case 'UserEmailBound':
      return { email: event.data.email, email_verified: true };
    case 'UserNotificationSettingsChanged':
      return { setting: notificationSettingText(event.data) };
    case 'UserAccessTokenIssued':
      return { access_token_hash: event.data.tokenHash };
    case 'UserExternalIdentityBound':
      return { [IDENTITY_FIELD[event.data.provider]]: event.data.externalId };
    case 'BudgetSet':
      // The budget only (docs/budgets.md); its use is summed from ledger_usage on reads.
      return { period_quota: event.data.periodQuota, period: event.data.period };
    default:
      return null;
  }
}

/** A user's first document: no balances, bindings or sessions yet, unless `fields` says so. */
function newUserDocument(
  id: string,
  at: number,
  fields: Pick<
    UserDocument,
    | 'username'
    | 'display_name'
    | 'password_hash'
    | 'role'
    | 'group'
    | 'email'
    | 'email_verified'
    | 'aff_code'
    | 'inviter_id'
  > &
    Partial<UserDocument>,
): UserDocument {
  return {
    _id: id,
    id: Number(id),
    username_lower: fields.username.toLowerCase(),
    status: UserStatus.Enabled,
    registration_pending: false,
    github_id: '',
    wechat_id: '',
    telegram_id: '',
    oidc_id: '',
    linux_do_id: '',
    setting: '',
    quota: 0,
    used_quota: 0,
    request_count: 0,
    aff_count: 0,
    aff_quota: 0,
    aff_history_quota: 0,
    remark: '',
    created_at: Math.floor(at / 1000),
    access_token_hash: '',
    sessions_valid_after: 0,
    revoked_sessions: [],
    source_position: 0,
    DeletedAt: null,
    ...fields,
  };
}
