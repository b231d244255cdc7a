/**
 * Hunyuan's answers in OpenAI shapes. A non-stream answer is wrapped:
 * `{Response: {Choices: [{Message, FinishReason}], Usage: {PromptTokens, CompletionTokens},
 * RequestId}}`; failures are `{Response: {Error: {Code, Message}}}`, usually with HTTP 200.
 * Stream events carry the inner object without the wrapper.
 */
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedAnswer, ConvertedFailure } from '../chat-adaptor';
import { count, isObject, objects, text } from '../json-parts';
import { chatChoice, chatCompletion } from '../openai-chunks';
import { textError } from '../provider-errors';

export function tencentUsage(usage: unknown): UpstreamUsage | undefined {
  if (!isObject(usage)) return undefined;
  const prompt = count(usage.PromptTokens);
  const completion = count(usage.CompletionTokens);
  if (prompt + completion === 0) return undefined;
  return { promptTokens: prompt, completionTokens: completion, cachedTokens: 0 };
}

/** `sensitive` (moderation stopped the answer) → content_filter; '' while streaming → null. */
export function tencentFinish(reason: unknown): string | null {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
      return 'tool_calls';
    case 'sensitive':
      return 'content_filter';
    default:
      return null;
  }
}

/** Status and OpenAI type of TencentCloud's error code families. */
function typeOfCode(code: string): { status: number; type: string } {
  if (code.startsWith('AuthFailure')) return { status: 401, type: 'authentication_error' };
  if (code.startsWith('UnauthorizedOperation')) return { status: 403, type: 'permission_error' };
  if (code.startsWith('LimitExceeded') || code.startsWith('RequestLimitExceeded')) {
    return { status: 429, type: 'rate_limit_error' };
  }
  if (
    code.startsWith('ResourceInsufficient') ||
    code === 'ResourceUnavailable.InArrears' ||
    code === 'FailedOperation.ServiceNotActivated' ||
    code === 'FailedOperation.ResourcePackExhausted'
  ) {
    return { status: 402, type: 'insufficient_quota' };
  }
  if (/^(InvalidParameter|MissingParameter|UnknownParameter|UnsupportedOperation)/.test(code)) {
    return { status: 400, type: 'invalid_request_error' };
  }
  return { status: 500, type: 'upstream_error' };
}

/** The stream's ErrorMsg.Code is a number. */
const errorCode = (code: unknown): string => (typeof code === 'number' ? String(code) : text(code));

/** `{Response: {Error}}`, `{Error}` or a stream's `{ErrorMsg: {Code, Msg}}` as a failure. */
export function tencentFailure(provider: JsonObject): ConvertedFailure | undefined {
  const inner = isObject(provider.Response) ? provider.Response : provider;
  const error = isObject(inner.Error)
    ? { code: text(inner.Error.Code), message: text(inner.Error.Message) }
    : isObject(inner.ErrorMsg)
      ? { code: errorCode(inner.ErrorMsg.Code), message: text(inner.ErrorMsg.Msg) }
      : undefined;
  if (!error) return undefined;
  const typed = typeOfCode(error.code);
  return {
    status: typed.status,
    info: { message: error.message || error.code, type: typed.type, code: error.code },
  };
}

export function tencentError(status: number, raw: string): UpstreamErrorInfo {
  try {
    const parsed: unknown = JSON.parse(raw);
    const failure = isObject(parsed) ? tencentFailure(parsed) : undefined;
    if (failure) return failure.info;
  } catch {
    // a proxy's text: the text is the message
  }
  return textError(status, raw, 'Tencent');
}

export function tencentChatAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const failure = tencentFailure(provider);
  if (failure) return { ok: false, failure };
  const inner = isObject(provider.Response) ? provider.Response : provider;
  const choices = objects(inner.Choices).map((choice, index) => {
    const message = isObject(choice.Message) ? choice.Message : {};
    const out: JsonObject = { role: 'assistant', content: text(message.Content) };
    const reasoning = text(message.ReasoningContent);
    if (reasoning !== '') out.reasoning_content = reasoning;
    return chatChoice(out, tencentFinish(choice.FinishReason) ?? 'stop', index);
  });
  const usage = tencentUsage(inner.Usage);
  return { ok: true, body: chatCompletion(ctx, choices, usage), usage };
}
