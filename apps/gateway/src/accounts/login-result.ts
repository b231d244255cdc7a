import type { LoginResultDto } from '@tollgate/contracts';
import type { UserDocument } from '../users/user.document';

/** What a successful sign-in answers, whichever way the user signed in. */
export function loginResultOf(user: UserDocument, defaultPassword = false): LoginResultDto {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
    default_password: defaultPassword,
  };
}
