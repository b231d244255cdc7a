import type { UserEvent } from './user.events';

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
        status: 1,
        group: d.group,
        registrationPending: d.completionFollows === true,
      };
    }
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
    // Passwords are checked against the read model; the aggregate (and its snapshots) keeps no hash.
    case 'UserPasswordChanged':
    case 'UserAccessTokenIssued':
    case 'UserSignedOut':
      return state;
  }
}
