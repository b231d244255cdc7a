import { withFields } from '@tollgate/domain';
import type { ServerResponse } from 'node:http';
import { errorBody, RelayError, type RelayErrorType } from '@tollgate/relay';
import { type Lang, translate } from '../shared/i18n/messages';

/** Browsers call /v1 from web chat apps: one-api and new-api answer CORS for everyone on the relay. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': 'x-tollgate-request-id, x-request-id',
};

export const REQUEST_ID_HEADER = 'x-tollgate-request-id';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** JSON bodies: prompts with images inlined as base64 legitimately reach megabytes. */
export const RELAY_JSON_BODY_LIMIT = 32 * 1024 * 1024;
/** Audio uploads (OpenAI accepts 25 MB files) plus the multipart framing. */
export const RELAY_AUDIO_BODY_LIMIT = 40 * 1024 * 1024;

/** What a relay error says: its message is the translation of `key` with `params`. */
export interface RelayErrorOptions {
  readonly lang: Lang;
  readonly status: number;
  /** The message's key in the translations (e.g. relay.model_missing). */
  readonly key: string;
  readonly params?: Readonly<Record<string, string | number>>;
  readonly type: RelayErrorType;
  /** The error's `code` field (null: none). */
  readonly code: string | null;
  /** Seconds, sent as Retry-After. */
  readonly retryAfter?: number;
}

const NO_PARAMS: Readonly<Record<string, string | number>> = {};

/** A relay error with its translated message. */
export function relayError(o: RelayErrorOptions): RelayError {
  return new RelayError(
    o.status,
    translate(o.key, o.params ?? NO_PARAMS, o.lang),
    o.type,
    o.code,
    o.retryAfter,
  );
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  requestId: string,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(body);
  res.writeHead(
    status,
    withFields(CORS_HEADERS, {
      'content-type': JSON_CONTENT_TYPE,
      'content-length': Buffer.byteLength(payload),
      [REQUEST_ID_HEADER]: requestId,
      ...extra,
    }),
  );
  res.end(payload);
}

/**
 * Writes a whole answer as it is, bytes or text (unless the client left or headers went already).
 */
export function sendBytes(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: Buffer | string,
  requestId: string,
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(
    status,
    withFields(CORS_HEADERS, {
      'content-type': contentType,
      'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
      [REQUEST_ID_HEADER]: requestId,
    }),
  );
  res.end(body);
}

/** Writes `error` in the client's protocol (OpenAI's unless the route speaks another). */
export function sendError(
  res: ServerResponse,
  error: RelayError,
  requestId: string,
  wire?: { errorBody(error: RelayError, requestId: string): unknown },
): void {
  const extra: Record<string, string> =
    error.retryAfter !== undefined ? { 'retry-after': String(error.retryAfter) } : {};
  const body = wire ? wire.errorBody(error, requestId) : errorBody(error, requestId);
  sendJson(res, error.status, body, requestId, extra);
}
