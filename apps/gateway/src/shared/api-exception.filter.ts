import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Logger,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@tollgate/domain';
import { ApiError } from './api-error';
import { pickLang, translate } from './i18n/messages';

/**
 * Every failure leaves in the envelope {success, message, data}: business failures as HTTP 200 with
 * success false, 401 for missing or invalid sessions, 429 for rate limits, 500 with a generic text
 * otherwise.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiException');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const lang = pickLang(request.headers['accept-language']);
    const { status, code, params } = this.classify(exception, request);
    void reply.status(status).send({ success: false, message: translate(code, params, lang) });
  }

  private classify(exception: unknown, request: FastifyRequest) {
    if (exception instanceof DomainError)
      return { status: 200, code: exception.code, params: exception.params };
    if (exception instanceof ApiError)
      return { status: exception.status, code: exception.code, params: exception.params };
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return { status, code: 'common.not_found', params: {} };
      if (status === 429) return { status, code: 'common.too_many_requests', params: {} };
      // Fastify's own refusals arrive here as HttpExceptions with their status.
      if (status === 413) return { status, code: 'edge.body_too_large', params: {} };
      if (status === 415) return { status, code: 'edge.json_only', params: {} };
      if (status < 500) return { status: 200, code: 'common.invalid_params', params: {} };
    }
    // Any other client error Fastify raised outside Nest's mapping (body parsing, media types).
    const { statusCode } = exception as { statusCode?: unknown };
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500)
      return { status: 200, code: 'common.invalid_params', params: {} };
    this.logger.error(
      `${request.method} ${request.url}: ${(exception as Error)?.stack ?? String(exception)}`,
    );
    return { status: 500, code: 'common.internal_error', params: {} };
  }
}
