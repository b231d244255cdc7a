import { isRoot, Role, UserStatus, type UserDto } from '@tollgate/contracts';

/** Deregistered users (status 3 or a DeletedAt time) are shown as such and get no actions. */
export const isDeregistered = (user: Pick<UserDto, 'status' | 'DeletedAt'>): boolean =>
  user.DeletedAt !== null || user.status === UserStatus.Deregistered;

/** What the signed-in viewer may do to a user's row; the server refuses anything else. */
export interface UserRights {
  /** Promote: root only, and only users below admin. */
  readonly promote: boolean;
  /** Demote: a manageable admin. */
  readonly demote: boolean;
  /**
   * Enable / disable, deregister, edit: a user who is not root and ranks below the viewer (root
   * manages everyone else).
   */
  readonly manage: boolean;
  /** The viewer's own row: edited on the personal tab instead. */
  readonly self: boolean;
}

type Viewer = Pick<UserDto, 'id' | 'role'> | null;

/** The row's rights for the viewer (null when nobody is signed in). */
export function userRights(viewer: Viewer, user: Pick<UserDto, 'id' | 'role'>): UserRights {
  const viewerIsRoot = viewer !== null && isRoot(viewer.role);
  const manage = !isRoot(user.role) && (viewerIsRoot || (viewer?.role ?? 0) > user.role);
  return {
    promote: viewerIsRoot && user.role < Role.Admin,
    demote: manage && user.role === Role.Admin,
    manage,
    self: viewer?.id === user.id,
  };
}
