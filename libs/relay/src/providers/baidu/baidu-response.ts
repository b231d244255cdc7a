/**
 * ERNIE v1 answers in OpenAI shapes: `{result, finish_reason, usage: {prompt_tokens,
 * completion_tokens}}`. Baidu reports most failures as `{error_code, error_msg}` in a 200 body,
 * so every answer and stream event is checked for one.
 */
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedAnswer, ConvertedFailure } from '../chat-adaptor';
import { count, isObject, text } from '../json-parts';
import { chatChoice, chatCompletion } from '../openai-chunks';
import { textError } from '../provider-errors';

export function baiduUsage(usage: unknown): UpstreamUsage | undefined {
  if (!isObject(usage)) return undefined;
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  if (prompt + completion === 0) return undefined;
  return { promptTokens: prompt, completionTokens: completion, cachedTokens: 0 };
}

/** `normal`/`stop` → stop; a cleared history (the answer was blocked) → content_filter. */
export function baiduFinish(provider: JsonObject): string {
  if (provider.need_clear_history === true) return 'content_filter';
  switch (provider.finish_reason) {
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case 'function_call':
      return 'tool_calls';
    default:
      return 'stop';
  }
}

/** Status and OpenAI type of Baidu's documented error codes. */
function typeOfCode(code: number): { status: number; type: string } {
  if (code === 110 || code === 111 || code === 336002) {
    return { status: 401, type: 'authentication_error' }; // access token invalid / expired
  }
  if ([4, 17, 18, 19, 336501, 336502, 336503].includes(code)) {
    return { status: 429, type: 'rate_limit_error' };
  }
  if (code === 6 || code === 336004) return { status: 403, type: 'permission_error' };
  if (code > 336000 && code < 336200 && code !== 336100) {
    return { status: 400, type: 'invalid_request_error' };
  }
  return { status: 500, type: 'upstream_error' };
}

/** An `{error_code, error_msg}` object as a failure; undefined for an answer. */
export function baiduFailure(provider: JsonObject): ConvertedFailure | undefined {
  const code = provider.error_code;
  if (typeof code !== 'number' || code === 0) return undefined;
  const typed = typeOfCode(code);
  return {
    status: typed.status,
    info: {
      message: text(provider.error_msg) || `Baidu error ${code}`,
      type: typed.type,
      code: String(code),
    },
  };
}

export function baiduError(status: number, raw: string): UpstreamErrorInfo {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed)) {
      const failure = baiduFailure(parsed);
      if (failure) return failure.info;
      // the OAuth endpoint's shape: {"error": "invalid_client", "error_description": "..."}
      if (typeof parsed.error_description === 'string') {
        return {
          message: parsed.error_description,
          type: 'authentication_error',
          code: text(parsed.error),
        };
      }
    }
  } catch {
    // a proxy's text: the text is the message
  }
  return textError(status, raw, 'Baidu');
}

export function baiduChatAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const failure = baiduFailure(provider);
  if (failure) return { ok: false, failure };
  const usage = baiduUsage(provider.usage);
  const message = { role: 'assistant', content: text(provider.result) };
  const body = chatCompletion(ctx, [chatChoice(message, baiduFinish(provider))], usage);
  return { ok: true, body, usage };
}
