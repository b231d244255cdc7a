/**
 * DashScope's answers in OpenAI shapes. With `result_format: 'message'` the answer is
 * `{output: {choices: [{message, finish_reason}]}, usage: {input_tokens, output_tokens,
 * prompt_tokens_details?}, request_id}`; failures are `{code, message, request_id}` (HTTP error
 * statuses, or an `error` stream event).
 */
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedAnswer, ConvertedFailure } from '../chat-adaptor';
import { count, isObject, objects, text } from '../json-parts';
import { chatChoice, chatCompletion } from '../openai-chunks';
import { textError } from '../provider-errors';

/** `usage` of an answer or stream event; undefined when it has no counts. */
export function aliUsage(usage: unknown): UpstreamUsage | undefined {
  if (!isObject(usage)) return undefined;
  const prompt = count(usage.input_tokens);
  const completion = count(usage.output_tokens);
  if (prompt + completion === 0) return undefined;
  const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completionDetails = isObject(usage.output_tokens_details)
    ? usage.output_tokens_details
    : {};
  const reasoning = count(completionDetails.reasoning_tokens);
  return {
    promptTokens: prompt,
    completionTokens: completion,
    cachedTokens: count(details.cached_tokens),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
  };
}

/** DashScope streams `"null"` (a string) until the last event. */
export function aliFinish(reason: unknown): string | null {
  if (reason === 'length' || reason === 'tool_calls' || reason === 'stop') return reason;
  return null;
}

/** Status and OpenAI type of DashScope's error codes (the HTTP status is kept when it has one). */
function typeOfCode(code: string, status: number): { status: number; type: string } {
  if (code === 'InvalidApiKey' || status === 401) {
    return { status: 401, type: 'authentication_error' };
  }
  if (code === 'Arrearage') return { status: 402, type: 'insufficient_quota' };
  if (code.startsWith('Throttling') || status === 429) {
    return { status: 429, type: 'rate_limit_error' };
  }
  if (code === 'AccessDenied' || status === 403) return { status: 403, type: 'permission_error' };
  if (code.startsWith('Invalid') || code === 'DataInspectionFailed' || status === 400) {
    return { status: 400, type: 'invalid_request_error' };
  }
  return { status: status >= 400 ? status : 500, type: 'upstream_error' };
}

/** A `{code, message}` object (a 2xx body or an `error` event) as a failure. */
export function aliFailure(provider: JsonObject, status = 500): ConvertedFailure | undefined {
  const code = text(provider.code);
  if (code === '' || isObject(provider.output)) return undefined;
  const message = text(provider.message) || code;
  const typed = typeOfCode(code, status);
  return { status: typed.status, info: { message, type: typed.type, code } };
}

export function aliError(status: number, raw: string): UpstreamErrorInfo {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed)) {
      const failure = aliFailure(parsed, status);
      if (failure) return failure.info;
    }
  } catch {
    // a proxy's text: the text is the message
  }
  return textError(status, raw, 'DashScope', typeOfCode('', status).type);
}

/** An assistant message of DashScope as OpenAI's (reasoning and tool calls kept). */
function openAiMessage(message: JsonObject): JsonObject {
  const out: JsonObject = { role: 'assistant', content: text(message.content) };
  const reasoning = text(message.reasoning_content);
  if (reasoning !== '') out.reasoning_content = reasoning;
  const calls = objects(message.tool_calls);
  if (calls.length > 0) {
    out.tool_calls = calls.map((call, n) => ({
      id: text(call.id) || `call_${n}`,
      type: 'function',
      function: {
        name: isObject(call.function) ? text(call.function.name) : '',
        arguments: isObject(call.function) ? text(call.function.arguments) : '',
      },
    }));
  }
  return out;
}

export function aliChatAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const failure = aliFailure(provider);
  if (failure) return { ok: false, failure };
  const output = isObject(provider.output) ? provider.output : {};
  const choices = objects(output.choices).map((choice, index) => {
    const message = openAiMessage(isObject(choice.message) ? choice.message : {});
    return chatChoice(message, aliFinish(choice.finish_reason) ?? 'stop', index);
  });
  // result_format 'text' (a channel override) answers `output.text`.
  if (choices.length === 0 && typeof output.text === 'string') {
    const message = { role: 'assistant', content: output.text };
    choices.push(chatChoice(message, aliFinish(output.finish_reason) ?? 'stop'));
  }
  const usage = aliUsage(provider.usage);
  return { ok: true, body: chatCompletion(ctx, choices, usage), usage };
}
