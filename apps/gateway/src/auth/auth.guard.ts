import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { USER_ID_HEADER } from '@tollgate/contracts';
import { ApiError } from '../shared/api-error';
import { MIN_ROLE } from './auth.decorators';
import type { AuthedRequest } from './authed-request';
import { Authenticator } from './authenticator';
import { SESSION_COOKIE } from './session-codec';

/** Global guard: routes marked with RequireRole need a user of that role; others are public. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const minRole = this.reflector.getAllAndOverride<number | undefined>(MIN_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (minRole === undefined) return true;
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const header = request.headers[USER_ID_HEADER.toLowerCase()];
    const user = await this.authenticator.authenticate({
      sessionCookie: request.cookies[SESSION_COOKIE],
      authorization: request.headers.authorization,
      userHeader: Array.isArray(header) ? header[0] : header,
    });
    if (user.role < minRole) throw new ApiError('auth.forbidden');
    request.user = user;
    return true;
  }
}
