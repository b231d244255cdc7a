import type { FastifyRequest } from 'fastify';
import type { SessionClaims } from './session-codec';
import type { SignedInUser } from './signed-in-user';

export type AuthedRequest = FastifyRequest & {
  user?: SignedInUser;
  /** The session the caller signed in with; null when they called with a system access token. */
  session?: SessionClaims | null;
  cookies: Record<string, string | undefined>;
};
