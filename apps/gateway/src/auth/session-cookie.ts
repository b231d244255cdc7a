import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from './authenticator';
import { SESSION_COOKIE, SESSION_MAX_AGE_S, SessionCodec } from './session-codec';

/** Starts a console session for this user: the signed cookie, as the password login sets it. */
export function setSessionCookie(
  authenticator: Authenticator,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): void {
  void reply.setCookie(
    SESSION_COOKIE,
    authenticator.sessions.encode(SessionCodec.start(userId, Date.now())),
    {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      // Over HTTPS, or behind a trusted proxy that says so (X-Forwarded-Proto, see TRUST_PROXY).
      secure: request.protocol === 'https',
      maxAge: SESSION_MAX_AGE_S,
    },
  );
}
