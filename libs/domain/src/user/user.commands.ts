import type { ManageAction } from '@tollgate/contracts';
import type { SealedSecret } from '../options/options.events';
import type {
  ExternalProvider,
  NotifyType,
  PasswordChangeReason,
  RegistrationSource,
  UserImported,
} from './user.events';
import type { ActorRef } from './user.rules';

export interface RegisterUser {
  readonly type: 'RegisterUser';
  readonly userId: number;
  readonly username: string;
  readonly displayName: string;
  readonly passwordHash: string;
  readonly role: number;
  readonly group: string;
  readonly email: string;
  readonly emailVerified?: boolean;
  readonly inviterId: number;
  readonly affCode: string;
  readonly source: RegistrationSource;
  readonly completionFollows?: boolean;
}

/** Takes a one-api / new-api user over as it was (see UserImported); a second time, nothing. */
export interface ImportUser {
  readonly type: 'ImportUser';
  readonly user: UserImported['data'];
}

export interface CompleteRegistration {
  readonly type: 'CompleteRegistration';
}

/** `actor` is absent when users act on themselves (self endpoints, password reset). */
export interface ChangePassword {
  readonly type: 'ChangePassword';
  readonly passwordHash: string;
  readonly reason: PasswordChangeReason;
  readonly actor?: ActorRef;
}

export interface UpdateProfile {
  readonly type: 'UpdateProfile';
  readonly displayName?: string;
  readonly remark?: string;
  readonly actor?: ActorRef;
}

export interface RenameUser {
  readonly type: 'RenameUser';
  readonly username: string;
  readonly actor: ActorRef;
}

export interface ChangeGroup {
  readonly type: 'ChangeGroup';
  readonly group: string;
  readonly actor: ActorRef;
}

export interface ManageUser {
  readonly type: 'ManageUser';
  readonly action: ManageAction;
  readonly actor: ActorRef;
}

export interface DeregisterSelf {
  readonly type: 'DeregisterSelf';
}

export interface IssueAccessToken {
  readonly type: 'IssueAccessToken';
  readonly tokenHash: string;
}

export interface SignOut {
  readonly type: 'SignOut';
  readonly sessionId: string;
  readonly issuedAt: number;
}

/**
 * Several edits decided together and appended at once, so they land all or none: the admin edit
 * form and the personal page. `passwordReason` says who changes the password.
 */
export interface EditUser {
  readonly type: 'EditUser';
  readonly displayName?: string;
  readonly remark?: string;
  readonly passwordHash?: string;
  readonly passwordReason?: PasswordChangeReason;
  readonly group?: string;
  readonly actor?: ActorRef;
}

/** Binds an email address the user proved by a mailed code (normalized by the caller). */
export interface BindEmail {
  readonly type: 'BindEmail';
  readonly email: string;
}

/** Binds a third-party identity; the caller has claimed its guard stream first. */
export interface BindExternalIdentity {
  readonly type: 'BindExternalIdentity';
  readonly provider: ExternalProvider;
  readonly externalId: string;
}

/**
 * The first-run wizard (POST /api/setup) on root's stream: new username and password in one append,
 * refused once the default password is gone (so the wizard runs once, even when raced).
 */
export interface CompleteSetup {
  readonly type: 'CompleteSetup';
  readonly username: string;
  readonly passwordHash: string;
}

/**
 * The user's own notification settings; the caller has validated the URL (and its address) and
 * sealed the secret. `keepWebhookSecret`: the secret stays as it is (the console sent none).
 */
export interface ChangeNotificationSettings {
  readonly type: 'ChangeNotificationSettings';
  readonly notifyType: NotifyType;
  readonly quotaWarningThreshold: number | null;
  readonly webhookUrl: string;
  readonly sealedWebhookSecret: SealedSecret | null;
  readonly keepWebhookSecret: boolean;
  readonly notificationEmail: string;
  readonly acceptAdminAlerts: boolean;
}

export type UserCommand =
  | ImportUser
  | ChangeNotificationSettings
  | CompleteSetup
  | BindExternalIdentity
  | EditUser
  | BindEmail
  | RegisterUser
  | ChangePassword
  | UpdateProfile
  | RenameUser
  | ChangeGroup
  | ManageUser
  | DeregisterSelf
  | IssueAccessToken
  | SignOut
  | CompleteRegistration;
