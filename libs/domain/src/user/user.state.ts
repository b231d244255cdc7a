import { UserStatus } from '@tollgate/contracts';
import type { ExternalProvider, UserEvent, UserNotificationSettingsChanged } from './user.events';

export type NotificationSettings = Omit<UserNotificationSettingsChanged['data'], 'userId'>;

export interface UserState {
  readonly exists: boolean;
  readonly userId: number;
  readonly username: string;
  readonly displayName: string;
  readonly remark: string;
  readonly role: number;
  readonly status: number;
  readonly group: string;
  readonly deregistered: boolean;
  /** Registered, but its grants may not all be written yet (see UserRegistrationCompleted). */
  readonly registrationPending: boolean;
  /**
   * The email proven by a mailed code ('' when none). Optional: snapshots written before it existed
   * lack it, and no email was verified then, so absent means ''.
   */
  readonly verifiedEmail?: string;
  /** Bound third-party ids by provider (absent in snapshots written before bindings existed). */
  readonly identities?: Readonly<Partial<Record<ExternalProvider, string>>>;
  /**
   * Still the password the bootstrap gave root (123456): the first-run wizard (POST /api/setup) is
   * open while it is. Set by a bootstrap registration, cleared by any password change.
   */
  readonly defaultPassword?: boolean;
  /** Taken over from one-api / new-api (UserImported); absent otherwise. */
  readonly imported?: boolean;
  /** The last notification settings saved (absent: never saved, the defaults apply). */
  readonly notifications?: NotificationSettings;
}

export const initialUserState: UserState = {
  exists: false,
  userId: 0,
  username: '',
  displayName: '',
  remark: '',
  role: 0,
  status: 0,
  group: '',
  deregistered: false,
  registrationPending: false,
};

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const d = event.data;
      return {
        ...state,
        exists: true,
        userId: d.userId,
        username: d.username,
        displayName: d.displayName,
        role: d.role,
        status: UserStatus.Enabled,
        group: d.group,
        registrationPending: d.completionFollows === true,
        verifiedEmail: d.emailVerified === true ? d.email : '',
        ...(d.source === 'bootstrap' ? { defaultPassword: true } : {}),
      };
    }
    case 'UserImported': {
      const d = event.data;
      return {
        ...state,
        exists: true,
        userId: d.userId,
        username: d.username,
        displayName: d.displayName,
        role: d.role,
        status: d.status,
        group: d.group,
        deregistered: d.deleted,
        registrationPending: false,
        verifiedEmail: d.emailVerified ? d.email : '',
        identities: { ...d.identities },
        imported: true,
        defaultPassword: false,
      };
    }
    case 'UserEmailBound':
      return { ...state, verifiedEmail: event.data.email };
    case 'UserProfileUpdated':
      return {
        ...state,
        displayName: event.data.displayName ?? state.displayName,
        remark: event.data.remark ?? state.remark,
      };
    case 'UserRenamed':
      return { ...state, username: event.data.to };
    case 'UserGroupChanged':
      return { ...state, group: event.data.to };
    case 'UserRoleChanged':
      return { ...state, role: event.data.to };
    case 'UserStatusChanged':
      return { ...state, status: event.data.to };
    case 'UserDeregistered':
      return { ...state, deregistered: true };
    case 'UserRegistrationCompleted':
      return { ...state, registrationPending: false };
    case 'UserExternalIdentityBound':
      return {
        ...state,
        identities: { ...state.identities, [event.data.provider]: event.data.externalId },
      };
    // Passwords are checked against the read model; the aggregate (and its snapshots) keeps no hash,
    // only whether the bootstrap's default one is still in place.
    case 'UserPasswordChanged':
      return state.defaultPassword ? { ...state, defaultPassword: false } : state;
    case 'UserNotificationSettingsChanged': {
      const { userId: _userId, ...notifications } = event.data;
      return { ...state, notifications };
    }
    case 'UserAccessTokenIssued':
    case 'UserSignedOut':
      return state;
  }
}
