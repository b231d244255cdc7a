import { Role, UserStatus, isAdmin, isRoot } from '@tollgate/contracts';
import type { DecideContext, Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type {
  BindEmail,
  BindExternalIdentity,
  ChangeGroup,
  ChangeNotificationSettings,
  ChangePassword,
  CompleteSetup,
  EditUser,
  ImportUser,
  ManageUser,
  RegisterUser,
  RenameUser,
  SignOut,
  UpdateProfile,
  UserCommand,
} from './user.commands';
import { EXTERNAL_PROVIDERS, NOTIFY_TYPES, type UserEvent } from './user.events';
import {
  assertExisting,
  assertMayManage,
  assertValidDisplayName,
  assertValidUsername,
  EXTERNAL_ID_MAX_LENGTH,
  isEmailAddress,
} from './user.rules';
import { evolveUser, initialUserState, type UserState } from './user.state';

/** Each command is decided by its own function below; the switch only dispatches. */
export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  // 2: the state no longer holds the password hash; older snapshots (with it) are not read.
  // 3: defaultPassword (the first-run wizard); older snapshots lack it.
  // (notifications is optional: version 3 snapshots without it read as "never saved".)
  snapshotVersion: 3,
  initialState: initialUserState,
  evolve: evolveUser,
  decide(command, state, context) {
    switch (command.type) {
      case 'EditUser':
        return decideEdit(command, state, context);
      case 'RegisterUser':
        return decideRegister(command, state);
      case 'ImportUser':
        return decideImport(command, state);
      case 'ChangePassword':
        return decideChangePassword(command, state);
      case 'UpdateProfile':
        return decideUpdateProfile(command, state);
      case 'RenameUser':
        return decideRename(command, state);
      case 'ChangeGroup':
        return decideChangeGroup(command, state);
      case 'ManageUser':
        return decideManage(command, state);
      case 'DeregisterSelf':
        assertExisting(state);
        if (isRoot(state.role)) throw new DomainError('user.cannot_delete_root');
        return [{ type: 'UserDeregistered', data: { userId: state.userId, by: 'self' } }];
      case 'CompleteRegistration':
        if (!state.exists) throw new DomainError('user.not_found');
        if (!state.registrationPending) return [];
        return [{ type: 'UserRegistrationCompleted', data: { userId: state.userId } }];
      case 'SignOut':
        return decideSignOut(command, state);
      case 'BindEmail':
        return decideBindEmail(command, state);
      case 'BindExternalIdentity':
        return decideBindIdentity(command, state);
      case 'CompleteSetup':
        return decideCompleteSetup(command, state);
      case 'ChangeNotificationSettings':
        return decideNotificationSettings(command, state);
      case 'IssueAccessToken':
        assertExisting(state);
        return [
          {
            type: 'UserAccessTokenIssued',
            data: { userId: state.userId, tokenHash: command.tokenHash },
          },
        ];
    }
  },
};

/** The edit form's one save: profile, then password and group when given. */
function decideEdit(command: EditUser, state: UserState, context: DecideContext): UserEvent[] {
  const { displayName, remark, passwordHash, passwordReason = 'self', group, actor } = command;
  const parts: UserCommand[] = [{ type: 'UpdateProfile', displayName, remark, actor }];
  if (passwordHash !== undefined)
    parts.push({ type: 'ChangePassword', passwordHash, reason: passwordReason, actor });
  if (group !== undefined) {
    if (!actor) throw new DomainError('common.invalid_params');
    parts.push({ type: 'ChangeGroup', group, actor });
  }
  // Each part reads the same state: none of them depends on another's outcome.
  return parts.flatMap((part) => userDecider.decide(part, state, context));
}

function decideRegister(command: RegisterUser, state: UserState): UserEvent[] {
  if (state.exists) throw new DomainError('user.already_exists');
  assertValidUsername(command.username);
  assertValidDisplayName(command.displayName);
  const { type: _type, ...data } = command;
  return [{ type: 'UserRegistered', data }];
}

function decideImport(command: ImportUser, state: UserState): UserEvent[] {
  // The same source row again (a resumed or repeated import): already taken over.
  if (state.imported) return [];
  // Only the untouched default root (bootstrap, password never changed) may be replaced.
  if (state.exists && !(isRoot(state.role) && state.defaultPassword))
    throw new DomainError('user.already_exists');
  const u = command.user;
  if (!Number.isSafeInteger(u.userId) || u.userId <= 0 || u.username.trim() === '')
    throw new DomainError('common.invalid_params');
  return [{ type: 'UserImported', data: u }];
}

function decideChangePassword(command: ChangePassword, state: UserState): UserEvent[] {
  assertExisting(state);
  if (command.actor) assertMayManage(command.actor, state);
  return [
    {
      type: 'UserPasswordChanged',
      data: { userId: state.userId, passwordHash: command.passwordHash, reason: command.reason },
    },
  ];
}

/** Only the fields that differ are recorded; nothing differs, nothing is recorded. */
function decideUpdateProfile(command: UpdateProfile, state: UserState): UserEvent[] {
  assertExisting(state);
  if (command.actor) assertMayManage(command.actor, state);
  const data: { userId: number; displayName?: string; remark?: string } = {
    userId: state.userId,
  };
  if (command.displayName !== undefined && command.displayName !== state.displayName) {
    assertValidDisplayName(command.displayName);
    data.displayName = command.displayName;
  }
  if (command.remark !== undefined && command.remark !== state.remark) data.remark = command.remark;
  if (Object.keys(data).length === 1) return [];
  return [{ type: 'UserProfileUpdated', data }];
}

function decideRename(command: RenameUser, state: UserState): UserEvent[] {
  assertExisting(state);
  assertMayManage(command.actor, state);
  assertValidUsername(command.username);
  if (command.username === state.username) return [];
  return [
    {
      type: 'UserRenamed',
      data: { userId: state.userId, from: state.username, to: command.username },
    },
  ];
}

function decideChangeGroup(command: ChangeGroup, state: UserState): UserEvent[] {
  assertExisting(state);
  assertMayManage(command.actor, state);
  const group = command.group.trim();
  if (group === '') throw new DomainError('user.group_required');
  if (group === state.group) return [];
  return [
    { type: 'UserGroupChanged', data: { userId: state.userId, from: state.group, to: group } },
  ];
}

function decideSignOut(command: SignOut, state: UserState): UserEvent[] {
  if (!state.exists) throw new DomainError('user.not_found');
  // A deregistered user's sessions are void already.
  if (state.deregistered) return [];
  return [
    {
      type: 'UserSignedOut',
      data: { userId: state.userId, sessionId: command.sessionId, issuedAt: command.issuedAt },
    },
  ];
}

function decideBindEmail(command: BindEmail, state: UserState): UserEvent[] {
  assertExisting(state);
  const email = command.email.trim();
  if (!isEmailAddress(email)) throw new DomainError('auth.email_invalid');
  const previous = state.verifiedEmail ?? '';
  if (email === previous) return [];
  return [{ type: 'UserEmailBound', data: { userId: state.userId, email, previous } }];
}

/** The first-run wizard: the default root gets its own name and password, once. */
function decideCompleteSetup(command: CompleteSetup, state: UserState): UserEvent[] {
  assertExisting(state);
  if (!isRoot(state.role) || !state.defaultPassword) throw new DomainError('setup.done');
  assertValidUsername(command.username);
  const renamed: UserEvent[] =
    command.username === state.username
      ? []
      : [
          {
            type: 'UserRenamed',
            data: { userId: state.userId, from: state.username, to: command.username },
          },
        ];
  return [
    ...renamed,
    {
      type: 'UserPasswordChanged',
      data: { userId: state.userId, passwordHash: command.passwordHash, reason: 'setup' },
    },
  ];
}

/**
 * One id per provider and user: binding the same id again changes nothing; another id of a provider
 * already bound is refused (no silent replacement of a sign-in method).
 */
function decideBindIdentity(command: BindExternalIdentity, state: UserState): UserEvent[] {
  assertExisting(state);
  if (!EXTERNAL_PROVIDERS.includes(command.provider))
    throw new DomainError('common.invalid_params');
  const externalId = command.externalId.trim();
  if (externalId === '' || externalId.length > EXTERNAL_ID_MAX_LENGTH)
    throw new DomainError('oauth.external_id_invalid');
  const current = state.identities?.[command.provider];
  if (current === externalId) return [];
  if (current)
    throw new DomainError('oauth.provider_already_bound', { provider: command.provider });
  return [
    {
      type: 'UserExternalIdentityBound',
      data: { userId: state.userId, provider: command.provider, externalId },
    },
  ];
}

/** promote / demote / enable / disable / delete, as in one-api and new-api (root is untouchable). */
function decideManage(command: ManageUser, state: UserState): UserEvent[] {
  assertExisting(state);
  assertMayManage(command.actor, state);
  const userId = state.userId;
  switch (command.action) {
    case 'promote':
      if (!isRoot(command.actor.role)) throw new DomainError('user.only_root_can_promote');
      if (isAdmin(state.role)) throw new DomainError('user.already_admin');
      return [{ type: 'UserRoleChanged', data: { userId, from: state.role, to: Role.Admin } }];
    case 'demote':
      if (isRoot(state.role)) throw new DomainError('user.cannot_demote_root');
      if (state.role <= Role.Common) throw new DomainError('user.already_common');
      return [{ type: 'UserRoleChanged', data: { userId, from: state.role, to: Role.Common } }];
    case 'enable':
      if (state.status === UserStatus.Enabled) return [];
      return [
        { type: 'UserStatusChanged', data: { userId, from: state.status, to: UserStatus.Enabled } },
      ];
    case 'disable':
      if (isRoot(state.role)) throw new DomainError('user.cannot_disable_root');
      if (state.status === UserStatus.Disabled) return [];
      return [
        {
          type: 'UserStatusChanged',
          data: { userId, from: state.status, to: UserStatus.Disabled },
        },
      ];
    case 'delete':
      if (isRoot(state.role)) throw new DomainError('user.cannot_delete_root');
      return [{ type: 'UserDeregistered', data: { userId, by: 'admin' } }];
    default:
      throw new DomainError('common.invalid_params');
  }
}

export const WEBHOOK_URL_MAX_LENGTH = 500;

/**
 * The whole set each time; the same settings again append nothing. A webhook needs a URL; only
 * administrators may accept channel alerts (false for everyone else).
 */
function decideNotificationSettings(
  command: ChangeNotificationSettings,
  state: UserState,
): UserEvent[] {
  assertExisting(state);
  if (!NOTIFY_TYPES.includes(command.notifyType))
    throw new DomainError('notice.notify_type_invalid');
  const threshold = command.quotaWarningThreshold;
  if (threshold !== null && (!Number.isSafeInteger(threshold) || threshold < 0))
    throw new DomainError('notice.threshold_invalid');
  const webhookUrl = command.webhookUrl.trim();
  if (
    webhookUrl.length > WEBHOOK_URL_MAX_LENGTH ||
    (webhookUrl !== '' && !/^https?:\/\//i.test(webhookUrl))
  )
    throw new DomainError('notice.webhook_url_invalid');
  if (command.notifyType === 'webhook' && webhookUrl === '')
    throw new DomainError('notice.webhook_url_required');
  const notificationEmail = command.notificationEmail.trim();
  if (notificationEmail !== '' && !isEmailAddress(notificationEmail))
    throw new DomainError('auth.email_invalid');
  const previous = state.notifications;
  const sealedWebhookSecret = command.keepWebhookSecret
    ? (previous?.sealedWebhookSecret ?? null)
    : command.sealedWebhookSecret;
  const data = {
    userId: state.userId,
    notifyType: command.notifyType,
    quotaWarningThreshold: threshold,
    webhookUrl,
    sealedWebhookSecret,
    notificationEmail,
    acceptAdminAlerts: isAdmin(state.role) && command.acceptAdminAlerts,
  };
  if (previous) {
    // Each seal has its own IV: the same secret is the same hash, never the same cipher.
    const { userId: _userId, ...next } = data;
    const comparable = (settings: typeof next) => ({
      ...settings,
      sealedWebhookSecret: settings.sealedWebhookSecret?.hash ?? null,
    });
    if (JSON.stringify(comparable(next)) === JSON.stringify(comparable(previous))) return [];
  }
  return [{ type: 'UserNotificationSettingsChanged', data }];
}
