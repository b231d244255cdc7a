import { UserStatus, type UserDto } from '@tollgate/contracts';

/** Deregistered users (status 3 or a DeletedAt time) are shown as such and get no actions. */
export const isDeregistered = (user: Pick<UserDto, 'status' | 'DeletedAt'>): boolean =>
  user.DeletedAt !== null || user.status === UserStatus.Deregistered;
