import type { DomainEvent } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';
import type { SealedSecret } from '../options/options.events';

/** Third-party sign-in providers a user may bind (one id per provider, unique across users). */
export type ExternalProvider = 'github' | 'wechat' | 'telegram' | 'oidc' | 'linuxdo';
export const EXTERNAL_PROVIDERS: readonly ExternalProvider[] = [
  'github',
  'wechat',
  'telegram',
  'oidc',
  'linuxdo',
];

export type RegistrationSource = 'register' | 'admin' | 'bootstrap' | ExternalProvider;
/**
 * `setup`: the first-run wizard replaced root's default password (POST /api/setup). `rehash`: a
 * password imported as a bcrypt hash was replaced by our own hash of the same password at a
 * successful sign-in (the system actor; sessions and the access token stay valid).
 */
export type PasswordChangeReason = 'self' | 'admin' | 'reset' | 'setup' | 'rehash';

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    userId: number;
    username: string;
    displayName: string;
    /** argon2id hash, never the password. */
    passwordHash: string;
    role: number;
    group: string;
    email: string;
    /** Proven by a mailed code; only a verified email signs in. Absent in older events: false. */
    emailVerified?: boolean;
    inviterId: number;
    affCode: string;
    source: RegistrationSource;
    /**
     * A UserRegistrationCompleted follows once the grants are written; until then start-up
     * recovery finishes the registration. Absent in older events: nothing to finish.
     */
    completionFollows?: boolean;
  }
>;
/** The last step of a registration: every grant and reward it implies is written. */
export type UserRegistrationCompleted = DomainEvent<
  'UserRegistrationCompleted',
  { userId: number }
>;
export type UserPasswordChanged = DomainEvent<
  'UserPasswordChanged',
  { userId: number; passwordHash: string; reason: PasswordChangeReason }
>;
export type UserProfileUpdated = DomainEvent<
  'UserProfileUpdated',
  { userId: number; displayName?: string; remark?: string }
>;
export type UserRenamed = DomainEvent<'UserRenamed', { userId: number; from: string; to: string }>;
export type UserGroupChanged = DomainEvent<
  'UserGroupChanged',
  { userId: number; from: string; to: string }
>;
export type UserRoleChanged = DomainEvent<
  'UserRoleChanged',
  { userId: number; from: number; to: number }
>;
export type UserStatusChanged = DomainEvent<
  'UserStatusChanged',
  { userId: number; from: number; to: number }
>;
export type UserDeregistered = DomainEvent<
  'UserDeregistered',
  { userId: number; by: 'self' | 'admin' }
>;
/** The system access token itself is shown once; only its SHA-256 is kept. */
export type UserAccessTokenIssued = DomainEvent<
  'UserAccessTokenIssued',
  { userId: number; tokenHash: string }
>;

/**
 * A console session ended by its user (logout). The session id is not a credential (the cookie is
 * signed); issuedAt lets read models forget the revocation once the session would have expired.
 */
export type UserSignedOut = DomainEvent<
  'UserSignedOut',
  { userId: number; sessionId: string; issuedAt: number }
>;

/**
 * An email address proven by a mailed code became the user's (the personal tab's email bind).
 * `previous` is the verified address it replaces ('' when none); its uniqueness guard is released.
 */
export type UserEmailBound = DomainEvent<
  'UserEmailBound',
  { userId: number; email: string; previous: string }
>;

/**
 * A third-party identity (GitHub user id, WeChat id, Telegram id, OpenID Connect subject, Linux DO
 * user id) now signs
 * in as this user. Its uniqueness is held by a guard stream claimed before this event.
 */
export type UserExternalIdentityBound = DomainEvent<
  'UserExternalIdentityBound',
  { userId: number; provider: ExternalProvider; externalId: string }
>;

/** How a user hears of low balances (and, for admins, channel alerts). */
export type NotifyType = 'email' | 'webhook';
export const NOTIFY_TYPES: readonly NotifyType[] = ['email', 'webhook'];

/**
 * The user's notification settings (new-api's `PUT /api/user/setting`), the whole set each time.
 * The webhook secret is sealed (never in clear); null when none is set. `notificationEmail` ''
 * means the bound email. `acceptAdminAlerts` only for administrators (false otherwise).
 */
export type UserNotificationSettingsChanged = DomainEvent<
  'UserNotificationSettingsChanged',
  {
    userId: number;
    notifyType: NotifyType;
    /** Quota units; null = the QuotaRemindThreshold option. */
    quotaWarningThreshold: number | null;
    webhookUrl: string;
    sealedWebhookSecret: SealedSecret | null;
    notificationEmail: string;
    acceptAdminAlerts: boolean;
  }
>;

/**
 * A user taken over from one-api / new-api with everything its row held at once: it replaces a
 * registration (no grants, no invitation rewards follow). The password hash is kept as it was
 * (bcrypt) until the next successful sign-in re-hashes it (UserPasswordChanged, reason `rehash`).
 * Balances live on billing-<id> (BalanceImported). A user deleted at the source is imported with
 * `deleted` true: it keeps its id (logs and tokens refer to it) but never signs in.
 */
export type UserImported = DomainEvent<
  'UserImported',
  {
    userId: number;
    username: string;
    displayName: string;
    /** bcrypt (`$2a$`/`$2b$`/`$2y$`) as the source stored it, or '' when it had none. */
    passwordHash: string;
    role: number;
    /** 1 enabled, 2 disabled. */
    status: number;
    group: string;
    email: string;
    /** Imported addresses count as verified: the source let them sign in and receive mail. */
    emailVerified: boolean;
    identities: Partial<Record<ExternalProvider, string>>;
    /** SHA-256 of the source's access token ('' when none): it keeps working as it did. */
    accessTokenHash: string;
    affCode: string;
    inviterId: number;
    deleted: boolean;
    source: ImportSource;
  }
>;

export type UserEvent =
  | UserImported
  | UserNotificationSettingsChanged
  | UserRegistered
  | UserExternalIdentityBound
  | UserEmailBound
  | UserPasswordChanged
  | UserProfileUpdated
  | UserRenamed
  | UserGroupChanged
  | UserRoleChanged
  | UserStatusChanged
  | UserDeregistered
  | UserAccessTokenIssued
  | UserSignedOut
  | UserRegistrationCompleted;

export const USER_EVENT_TYPES: readonly UserEvent['type'][] = [
  'UserRegistered',
  'UserImported',
  'UserEmailBound',
  'UserPasswordChanged',
  'UserProfileUpdated',
  'UserRenamed',
  'UserGroupChanged',
  'UserRoleChanged',
  'UserStatusChanged',
  'UserDeregistered',
  'UserAccessTokenIssued',
  'UserSignedOut',
  'UserRegistrationCompleted',
  'UserExternalIdentityBound',
  'UserNotificationSettingsChanged',
];
