/** Anthropic's error bodies `{"type":"error","error":{"type","message"}}`, both ways. */
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import type { JsonObject } from '../../openai/request-body';
import { isObject, text } from '../json-parts';

/** An Anthropic `error` object as the OpenAI error fields (the type doubles as the code). */
export function anthropicErrorInfo(error: JsonObject): UpstreamErrorInfo {
  const type = text(error.type);
  return { message: text(error.message) || type || 'upstream error', type, code: type };
}

/** A non-2xx answer's body (maybe not JSON: a proxy's HTML page) as the OpenAI error fields. */
export function anthropicErrorOfBody(raw: string): UpstreamErrorInfo {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed) && isObject(parsed.error)) return anthropicErrorInfo(parsed.error);
    if (isObject(parsed) && typeof parsed.message === 'string') {
      return { message: parsed.message, type: '', code: '' };
    }
  } catch {
    // not JSON
  }
  return { message: raw.slice(0, 1000), type: '', code: '' };
}

const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
  // Bedrock's exceptions, which reach the Anthropic converter as in-stream error events.
  throttlingException: 429,
  validationException: 400,
  modelStreamErrorException: 424,
  modelTimeoutException: 408,
  serviceUnavailableException: 503,
  internalServerException: 500,
};

/** The HTTP status Anthropic uses for an error type (an in-stream error has none of its own). */
export function statusOfAnthropicError(type: string): number {
  return STATUS_OF_TYPE[type] ?? 500;
}

/** The Anthropic error type a client expects for an HTTP status. */
export function anthropicTypeOfStatus(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 402 || status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529 || status === 503) return 'overloaded_error';
  // Anthropic documents invalid_request_error for the 4xx statuses it does not list.
  return status >= 400 && status < 500 ? 'invalid_request_error' : 'api_error';
}

/** The body an Anthropic client gets for a failed call. */
export function anthropicErrorBody(status: number, message: string): JsonObject {
  return { type: 'error', error: { type: anthropicTypeOfStatus(status), message } };
}
