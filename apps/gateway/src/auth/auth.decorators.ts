import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { AuthedRequest } from './authed-request';
import type { SessionClaims } from './session-codec';
import type { SignedInUser } from './signed-in-user';

export const MIN_ROLE = 'tollgate:min-role';

/** The route needs a signed-in user of at least this role (1 ordinary, 10 admin, 100 root). */
export const RequireRole = (role: number) => SetMetadata(MIN_ROLE, role);

/** Who calls (resolved by the AuthGuard from the session or the access token). */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): SignedInUser => {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    if (!request.user) throw new Error('CurrentUser used on a route without RequireRole');
    return request.user;
  },
);

/** The session the authenticated caller used, or null for a system access token. */
export const CurrentSession = createParamDecorator(
  (_data: unknown, context: ExecutionContext): SessionClaims | null =>
    context.switchToHttp().getRequest<AuthedRequest>().session ?? null,
);
