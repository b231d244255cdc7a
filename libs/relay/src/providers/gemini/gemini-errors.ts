/**
 * Google's error shape `{"error":{"code":400,"message":"…","status":"INVALID_ARGUMENT"}}` both ways:
 * an upstream error as the OpenAI fields, and the canonical status name a Gemini client expects for
 * an HTTP status (google.rpc.Code's HTTP mapping).
 */
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import { objectOf, parseObject, stringOf } from '../json-parts';

const GOOGLE_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The status name for an HTTP status; other 4xx are FAILED_PRECONDITION, other 5xx INTERNAL. */
export function googleStatus(status: number): string {
  return GOOGLE_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

/** A non-2xx Gemini body as the OpenAI error fields; non-JSON bodies give their text (bounded). */
export function geminiErrorInfo(text: string): UpstreamErrorInfo {
  const body = parseObject(text);
  // Google answers one error object; some proxies in front of it wrap it in a list.
  const error = objectOf(body?.error) ?? objectOf(parseArrayHead(text)?.error);
  const message = stringOf(error?.message);
  if (error === undefined || message === undefined) {
    return { message: text.slice(0, 1000), type: 'upstream_error', code: '' };
  }
  const status = stringOf(error.status);
  return {
    message,
    type: status ? status.toLowerCase() : 'upstream_error',
    code: status ?? (typeof error.code === 'number' ? String(error.code) : ''),
  };
}

function parseArrayHead(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? objectOf(value[0]) : undefined;
  } catch {
    return undefined;
  }
}
