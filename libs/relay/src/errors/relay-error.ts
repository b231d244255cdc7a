/**
 * Relay errors in the OpenAI shape `{"error":{message,type,param,code}}`, with the request id in the
 * message (one-api's and new-api's `MessageWithRequestId`), so a user's complaint can be traced to
 * its log row.
 */

export type RelayErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'insufficient_quota'
  | 'budget_exceeded'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'tollgate_error';

export interface RelayErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string;
    readonly code: string | null;
  };
}

export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: RelayErrorType,
    readonly code: string | null = null,
    /** Seconds, for 429s and 503s. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export function withRequestId(message: string, requestId: string): string {
  return `${message} (request id: ${requestId})`;
}

export function errorBody(error: RelayError, requestId: string): RelayErrorBody {
  return openAiErrorBody(withRequestId(error.message, requestId), error.type, error.code);
}

/** OpenAI's error shape, every /v1 endpoint's (the message already carries the request id). */
export function openAiErrorBody(
  message: string,
  type: string,
  code: string | null,
): RelayErrorBody {
  return { error: { message, type, param: '', code } };
}

/** The routes one-api and new-api answer with 501 (not implemented). */
export const NOT_IMPLEMENTED_ROUTES: ReadonlyArray<{ method: string; url: string }> = [
  { method: 'POST', url: '/v1/images/edits' },
  { method: 'POST', url: '/v1/images/variations' },
  { method: 'GET', url: '/v1/files' },
  { method: 'POST', url: '/v1/files' },
  { method: 'DELETE', url: '/v1/files/:id' },
  { method: 'GET', url: '/v1/files/:id' },
  { method: 'GET', url: '/v1/files/:id/content' },
  { method: 'POST', url: '/v1/fine-tunes' },
  { method: 'GET', url: '/v1/fine-tunes' },
  { method: 'GET', url: '/v1/fine-tunes/:id' },
  { method: 'POST', url: '/v1/fine-tunes/:id/cancel' },
  { method: 'GET', url: '/v1/fine-tunes/:id/events' },
  { method: 'DELETE', url: '/v1/models/:model' },
];

export function notImplemented(): RelayError {
  return new RelayError(501, 'API not implemented', 'tollgate_error', 'api_not_implemented');
}

/**
 * The error an upstream sent, reduced to the OpenAI fields (any of them may be missing); the raw
 * text when the body is not the OpenAI shape.
 */
export interface UpstreamErrorInfo {
  readonly message: string;
  readonly type: string;
  readonly code: string;
}

export function upstreamErrorInfo(raw: string): UpstreamErrorInfo {
  try {
    const parsed = JSON.parse(raw) as { error?: unknown; message?: unknown };
    const e = parsed.error;
    if (e !== null && typeof e === 'object') {
      const o = e as Record<string, unknown>;
      return {
        message: typeof o.message === 'string' ? o.message : raw.slice(0, 1000),
        type: typeof o.type === 'string' ? o.type : '',
        code: typeof o.code === 'string' || typeof o.code === 'number' ? String(o.code) : '',
      };
    }
    if (typeof e === 'string') return { message: e, type: '', code: '' };
    if (typeof parsed.message === 'string') return { message: parsed.message, type: '', code: '' };
  } catch {
    // not JSON
  }
  return { message: raw.slice(0, 1000), type: '', code: '' };
}
