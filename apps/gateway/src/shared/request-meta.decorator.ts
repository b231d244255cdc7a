import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestIdFrom } from '../observability/request-id';
import { requestRecordOf } from '../observability/request-tracker';
import { pickLang } from './i18n/messages';
import type { RequestMeta } from './request-meta';

/** What is read of a request: the caller the auth guard put on it, when the route has one. */
type MetaRequest = FastifyRequest & { user?: { readonly id: number; readonly role: number } };

export function requestMetaOf(request: MetaRequest): RequestMeta {
  const user = request.user;
  return {
    actor: user
      ? { kind: 'user', id: user.id, role: user.role }
      : { kind: 'anonymous', id: null, role: null },
    ip: request.ip,
    // The id on the request's log line and in its X-Request-Id answer (the client's when sent).
    correlationId:
      requestRecordOf(request.raw)?.requestId ?? requestIdFrom(request.headers['x-request-id']),
    lang: pickLang(request.headers['accept-language']),
  };
}

/** Actor, IP and correlation id of the current request: the metadata of the events it appends. */
export const Meta = createParamDecorator((_data: unknown, context: ExecutionContext): RequestMeta =>
  requestMetaOf(context.switchToHttp().getRequest<MetaRequest>()),
);
