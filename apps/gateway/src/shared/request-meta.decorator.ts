import { randomUUID } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthedRequest } from '../auth/authed-request';
import { pickLang } from './i18n/messages';
import type { RequestMeta } from './request-meta';

export function requestMetaOf(request: AuthedRequest): RequestMeta {
  const user = request.user;
  const header = request.headers['x-request-id'];
  return {
    actor: user
      ? { kind: 'user', id: user.id, role: user.role }
      : { kind: 'anonymous', id: null, role: null },
    ip: request.ip,
    correlationId: typeof header === 'string' && header.length <= 100 ? header : randomUUID(),
    lang: pickLang(request.headers['accept-language']),
  };
}

/** Actor, IP and correlation id of the current request: the metadata of the events it appends. */
export const Meta = createParamDecorator((_data: unknown, context: ExecutionContext): RequestMeta =>
  requestMetaOf(context.switchToHttp().getRequest<AuthedRequest>()),
);
