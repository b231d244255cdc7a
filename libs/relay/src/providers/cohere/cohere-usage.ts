/**
 * Cohere usage and error bodies. A chat's `usage` has `tokens` (what the model saw) and
 * `billed_units` (what Cohere charges, without its own system prompt); the relay counts the
 * tokens when present, like the other providers' counts, and falls back to the billed units.
 */
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import type { UpstreamUsage } from '../../openai/usage-reader';
import { count, isObject } from '../json-parts';
import { typeOfStatus } from '../provider-errors';

export function cohereUsage(usage: unknown): UpstreamUsage | undefined {
  if (!isObject(usage)) return undefined;
  const tokens = isObject(usage.tokens) ? usage.tokens : undefined;
  const billed = isObject(usage.billed_units) ? usage.billed_units : undefined;
  const source =
    tokens && (tokens.input_tokens !== undefined || tokens.output_tokens !== undefined)
      ? tokens
      : billed;
  if (!source || (source.input_tokens === undefined && source.output_tokens === undefined)) {
    return undefined;
  }
  const prompt = count(source.input_tokens);
  return {
    promptTokens: prompt,
    completionTokens: count(source.output_tokens),
    cachedTokens: Math.min(count(usage.cached_tokens), prompt),
  };
}

/** COMPLETE/STOP_SEQUENCE → stop, MAX_TOKENS → length, TOOL_CALL → tool_calls. */
export function finishReason(reason: unknown): string {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'TOOL_CALL':
      return 'tool_calls';
    case 'ERROR_TOXIC':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** OpenAI error types a client (and the channel policy: 401, 402 disable) can act on. */
function errorType(status: number): string {
  if (status === 402) return 'insufficient_quota';
  if (status === 400 || status === 404 || status === 422) return 'invalid_request_error';
  return typeOfStatus(status);
}

/** `{"id": "...", "message": "..."}` (or a bare message) as the OpenAI fields. */
export function cohereError(status: number, text: string): UpstreamErrorInfo {
  let message = text.trim().slice(0, 1000);
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed) && typeof parsed.message === 'string') message = parsed.message;
    else if (isObject(parsed) && isObject(parsed.error) && typeof parsed.error.message === 'string')
      message = parsed.error.message;
  } catch {
    // not JSON: the text is the message
  }
  if (message === '') message = `Cohere answered HTTP ${status}`;
  return { message, type: errorType(status), code: '' };
}
