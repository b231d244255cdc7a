import type { FastifyRequest } from 'fastify';
import type { UserDocument } from '../projections/user.document';

export type AuthedRequest = FastifyRequest & {
  user?: UserDocument;
  cookies: Record<string, string | undefined>;
};
