/**
 * Cohere's non-stream v2 chat answer as an OpenAI chat.completion: the text blocks joined, thinking
 * blocks and the tool plan as reasoning_content (the plan is the model's reasoning before it calls
 * tools, not an answer), tool calls as they are (v2 already uses OpenAI's shape).
 */
import type { JsonObject } from '../../openai/request-body';
import type { ConvertContext, ConvertedAnswer, ConvertedFailure } from '../chat-adaptor';
import { isObject } from '../json-parts';
import { chatChoice, chatCompletion } from '../openai-chunks';
import { cohereUsage, finishReason } from './cohere-usage';

/** A generation Cohere gave up on (finish_reason ERROR), with its message when it sent one. */
export function generationFailure(reason: unknown, error: unknown): ConvertedFailure | undefined {
  if (reason !== 'ERROR') return undefined;
  const message =
    typeof error === 'string' && error !== '' ? error : 'Cohere ended the generation with ERROR';
  return { status: 500, info: { message, type: 'upstream_error', code: '' } };
}

export function cohereChatAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const failure = generationFailure(provider.finish_reason, provider.error);
  if (failure) return { ok: false, failure };
  const message = isObject(provider.message) ? provider.message : {};
  let text = '';
  let thinking = '';
  for (const block of Array.isArray(message.content) ? (message.content as unknown[]) : []) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    if (block.type === 'thinking' && typeof block.thinking === 'string') thinking += block.thinking;
  }
  if (typeof message.tool_plan === 'string') thinking += message.tool_plan;
  const out: JsonObject = { role: 'assistant', content: text };
  if (thinking !== '') out.reasoning_content = thinking;
  const calls = Array.isArray(message.tool_calls)
    ? (message.tool_calls as unknown[]).filter(isObject).map((call, n) => {
        const fn = isObject(call.function) ? call.function : {};
        return {
          id: typeof call.id === 'string' ? call.id : `call_${n}`,
          type: 'function',
          function: {
            name: typeof fn.name === 'string' ? fn.name : '',
            arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}',
          },
        };
      })
    : [];
  if (calls.length > 0) out.tool_calls = calls;
  const usage = cohereUsage(provider.usage);
  const choice = chatChoice(out, finishReason(provider.finish_reason));
  return { ok: true, body: chatCompletion(ctx, [choice], usage), usage };
}
