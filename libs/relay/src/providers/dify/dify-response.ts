/**
 * Dify's answers in OpenAI shapes. A blocking answer is `{event: 'message', answer, metadata:
 * {usage: {prompt_tokens, completion_tokens, ...}}}`; errors are `{code, message, status}` (an
 * HTTP error, or an `error` stream event).
 */
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedAnswer, ConvertedFailure } from '../chat-adaptor';
import { count, isObject, text } from '../json-parts';
import { chatChoice, chatCompletion } from '../openai-chunks';
import { textError } from '../provider-errors';

/** `metadata.usage` of an answer or a message_end event. */
export function difyUsage(provider: JsonObject): UpstreamUsage | undefined {
  const usage = isObject(provider.metadata) ? provider.metadata.usage : undefined;
  if (!isObject(usage)) return undefined;
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  if (prompt + completion === 0) return undefined;
  return { promptTokens: prompt, completionTokens: completion, cachedTokens: 0 };
}

function errorType(status: number, code: string): string {
  if (status === 401 || code === 'unauthorized') return 'authentication_error';
  if (status === 429 || code === 'rate_limit_error') return 'rate_limit_error';
  if (code === 'provider_quota_exceeded') return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 400 || status === 404) return 'invalid_request_error';
  return 'upstream_error';
}

/** A `{code, message, status}` object (an `error` event) as a failure. */
export function difyFailure(provider: JsonObject): ConvertedFailure | undefined {
  if (
    provider.event !== 'error' &&
    (provider.answer !== undefined || provider.code === undefined)
  ) {
    return undefined;
  }
  const status = count(provider.status) || 500;
  const code = text(provider.code);
  return {
    status,
    info: {
      message: text(provider.message) || code || 'Dify error',
      type: errorType(status, code),
      code,
    },
  };
}

export function difyError(status: number, raw: string): UpstreamErrorInfo {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed) && typeof parsed.message === 'string') {
      const code = text(parsed.code);
      return { message: parsed.message, type: errorType(status, code), code };
    }
  } catch {
    // a proxy's text: the text is the message
  }
  return textError(status, raw, 'Dify', errorType(status, ''));
}

export function difyChatAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const failure = difyFailure(provider);
  if (failure) return { ok: false, failure };
  const usage = difyUsage(provider);
  const message = { role: 'assistant', content: text(provider.answer) };
  const body = chatCompletion(ctx, [chatChoice(message, 'stop')], usage);
  return { ok: true, body, usage };
}
