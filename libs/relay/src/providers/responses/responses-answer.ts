/**
 * A chat.completion as a Responses API `response` object: reasoning, the message and each function
 * call become output items in the order a Responses model emits them. Ids derive from the
 * gateway's request id, so a stream and its `response.completed` name the same items.
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext } from '../chat-adaptor';
import { isObject, objects, text } from '../json-parts';

/** The Responses id of an answer the gateway names `chatcmpl-<request id>`. */
export function responseId(ctx: ConvertContext): string {
  return `resp_${ctx.id.replace(/^chatcmpl-/, '')}`;
}

/** The ids of a response's output items: one reasoning, one message, a function call per index. */
export function itemIds(ctx: ConvertContext): {
  reasoning: string;
  message: string;
  call: (index: number) => string;
} {
  const base = ctx.id.replace(/^chatcmpl-/, '');
  return {
    reasoning: `rs_${base}`,
    message: `msg_${base}`,
    call: (index) => `fc_${base}_${index}`,
  };
}

/** Responses usage (input/output with their details) of the usage the upstream reported. */
export function responsesUsage(usage: UpstreamUsage | undefined): JsonObject | null {
  if (!usage) return null;
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

/** Why a response stopped short: chat's `length` and `content_filter`, else null (complete). */
export function incompleteReason(finish: unknown): string | null {
  if (finish === 'length') return 'max_output_tokens';
  if (finish === 'content_filter') return 'content_filter';
  return null;
}

/** The `response` object around some output items (the stream's events carry it too). */
export function responseObject(
  ctx: ConvertContext,
  output: JsonObject[],
  status: 'in_progress' | 'completed' | 'incomplete',
  usage: UpstreamUsage | undefined,
  reason: string | null = null,
): JsonObject {
  return {
    id: responseId(ctx),
    object: 'response',
    created_at: ctx.created,
    status,
    error: null,
    incomplete_details: reason === null ? null : { reason },
    model: ctx.model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    // Nothing is kept for previous_response_id: the gateway is stateless on this path.
    store: false,
    text: { format: { type: 'text' } },
    usage: status === 'in_progress' ? null : responsesUsage(usage),
  };
}

export const reasoningItem = (id: string, summary: string): JsonObject => ({
  type: 'reasoning',
  id,
  summary: summary === '' ? [] : [{ type: 'summary_text', text: summary }],
});

export const messageItem = (id: string, content: string, status = 'completed'): JsonObject => ({
  type: 'message',
  id,
  status,
  role: 'assistant',
  content: status === 'in_progress' ? [] : [outputText(content)],
});

export const outputText = (content: string): JsonObject => ({
  type: 'output_text',
  text: content,
  annotations: [],
});

export const functionCallItem = (
  id: string,
  call: { callId: string; name: string; arguments: string },
  status = 'completed',
): JsonObject => ({
  type: 'function_call',
  id,
  call_id: call.callId,
  name: call.name,
  arguments: call.arguments,
  status,
});

/** A whole chat.completion (its first choice: the Responses API has no `n`) as a response. */
export function responseOfChat(
  openai: JsonObject,
  usage: UpstreamUsage | undefined,
  ctx: ConvertContext,
): JsonObject {
  const choice = objects(openai.choices)[0] ?? {};
  const message = isObject(choice.message) ? choice.message : {};
  const ids = itemIds(ctx);
  const output: JsonObject[] = [];
  const reasoning = text(message.reasoning_content);
  if (reasoning !== '') output.push(reasoningItem(ids.reasoning, reasoning));
  const content = text(message.content);
  if (content !== '' || !Array.isArray(message.tool_calls)) {
    output.push(messageItem(ids.message, content));
  }
  objects(message.tool_calls).forEach((call, index) => {
    const fn = isObject(call.function) ? call.function : {};
    output.push(
      functionCallItem(ids.call(index), {
        callId: text(call.id),
        name: text(fn.name),
        arguments: text(fn.arguments),
      }),
    );
  });
  const reason = incompleteReason(choice.finish_reason);
  return responseObject(ctx, output, reason ? 'incomplete' : 'completed', usage, reason);
}
