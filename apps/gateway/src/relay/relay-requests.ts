/** What the relay's route handlers read off a request: its language, its query, its token caller. */
import type { IngressKind } from '@tollgate/relay';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestRecordOf } from '../observability/request-tracker';
import { type Lang, pickRelayLang } from '../shared/i18n/messages';
import { clientWireOfIngress } from './client-wire';
import { callerOf } from './relay-gate';
import { relayError, sendError } from './relay-http';
import type { RelayToken, RelayUser } from './relay-ports';

/** The language of the relay's answers: the client's when we have it, else English (lang.ts). */
export function langOf(request: FastifyRequest): Lang {
  return pickRelayLang(request.headers['accept-language']);
}

export function queryOf(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

/**
 * The caller of a read that needs a token (model lists, billing, 501s): the reply is hijacked; a
 * caller without a token is refused in the client's protocol and undefined is returned.
 */
export function tokenCaller(
  request: FastifyRequest,
  reply: FastifyReply,
  requestId: string,
  ingress?: IngressKind,
): { user: RelayUser; token: RelayToken; lang: Lang } | undefined {
  reply.hijack();
  const lang = langOf(request);
  const { user, token } = callerOf(request);
  const record = requestRecordOf(request.raw);
  if (record) record.userId = user.id;
  if (token) return { user, token, lang };
  sendError(
    reply.raw,
    relayError({
      lang,
      status: 401,
      key: 'relay.token_missing',
      type: 'authentication_error',
      code: 'token_missing',
    }),
    requestId,
    clientWireOfIngress(ingress),
  );
  return undefined;
}
