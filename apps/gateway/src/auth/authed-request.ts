import type { FastifyRequest } from 'fastify';
import type { UserDocument } from '../projections/user.document';
import type { SessionClaims } from './session-codec';

export type AuthedRequest = FastifyRequest & {
  user?: UserDocument;
  /** The session the caller signed in with; null when they called with a system access token. */
  session?: SessionClaims | null;
  cookies: Record<string, string | undefined>;
};
