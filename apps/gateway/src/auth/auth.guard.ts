import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { requestRecordOf } from '../observability/request-tracker';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { SESSION_ENDED_HEADER, USER_ID_HEADER } from '@tollgate/contracts';
import { ApiError } from '../shared/api-error';
import { MIN_ROLE } from './auth.decorators';
import type { AuthedRequest } from './authed-request';
import { Authenticator, BannedSessionError } from './authenticator';
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
    const caller = await this.authenticator
      .identify({
        sessionCookie: request.cookies[SESSION_COOKIE],
        authorization: request.headers.authorization,
        userHeader: Array.isArray(header) ? header[0] : header,
      })
      .catch((error: unknown) => {
        // A banned user's session ends here: the answer (HTTP 200) also clears its cookie.
        if (error instanceof BannedSessionError)
          endSession(context.switchToHttp().getResponse<FastifyReply>());
        throw error;
      });
    if (caller.user.role < minRole) throw new ApiError('auth.forbidden');
    request.user = caller.user;
    const record = requestRecordOf(request.raw);
    if (record) record.userId = caller.user.id;
    request.session = caller.session;
    return true;
  }
}

function endSession(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
  void reply.header(SESSION_ENDED_HEADER, 'banned');
}
