/**
 * Non-stream answers and usage between Anthropic's Messages API and the OpenAI chat wire, both
 * ways. Anthropic counts `input_tokens` without the cache reads and writes; OpenAI's prompt
 * includes them: the usage here is always in OpenAI's meaning.
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedAnswer } from '../chat-adaptor';
import { count, defined, isObject, objects, parseArguments, text } from '../json-parts';
import { chatChoice, chatCompletion } from '../openai-chunks';

/** Anthropic's usage object (message, message_start, message_delta) in OpenAI's meaning. */
export function usageOfAnthropic(usage: unknown): UpstreamUsage | undefined {
  if (!isObject(usage)) return undefined;
  const input = count(usage.input_tokens);
  const read = count(usage.cache_read_input_tokens);
  const creation = count(usage.cache_creation_input_tokens);
  const output = count(usage.output_tokens);
  if (input + read + creation + output === 0) return undefined;
  return {
    promptTokens: input + read + creation,
    completionTokens: output,
    cachedTokens: read,
    cacheCreationTokens: creation,
  };
}

/** Anthropic's usage object for an answer in OpenAI's meaning (the inverse of usageOfAnthropic). */
export function anthropicUsageObject(usage: UpstreamUsage | undefined): JsonObject {
  const u = usage ?? { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
  const creation = u.cacheCreationTokens ?? 0;
  return {
    input_tokens: Math.max(0, u.promptTokens - u.cachedTokens - creation),
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: u.cachedTokens,
    output_tokens: u.completionTokens,
  };
}

const STOP_TO_FINISH: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

export function finishOfStop(stop: unknown): string | null {
  return typeof stop === 'string' ? (STOP_TO_FINISH[stop] ?? 'stop') : null;
}

export function stopOfFinish(finish: unknown): string {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/** A Messages answer as an OpenAI chat.completion (its first text after the request's prefill). */
export function openAiResponseOfAnthropic(
  message: JsonObject,
  ctx: ConvertContext,
): ConvertedAnswer {
  let content = '';
  let reasoning = '';
  let prefix = ctx.answerPrefix ?? '';
  const toolCalls: JsonObject[] = [];
  for (const block of objects(message.content)) {
    if (block.type === 'text') {
      content += prefix + text(block.text);
      prefix = '';
    } else if (block.type === 'thinking') reasoning += text(block.thinking);
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: text(block.id),
        type: 'function',
        function: { name: text(block.name), arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const usage = usageOfAnthropic(message.usage);
  const answer = defined({
    role: 'assistant',
    content: content === '' && toolCalls.length > 0 ? null : content,
    reasoning_content: reasoning === '' ? undefined : reasoning,
    tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
  });
  const choice = chatChoice(answer, finishOfStop(message.stop_reason) ?? 'stop');
  return { ok: true, body: chatCompletion(ctx, [choice], usage), usage };
}

/** An OpenAI chat.completion as a Messages answer (for Anthropic clients of other upstreams). */
export function anthropicResponseOfOpenAi(
  openai: JsonObject,
  usage: UpstreamUsage | undefined,
  ctx: ConvertContext,
): JsonObject {
  const choice = objects(openai.choices)[0] ?? {};
  const message = isObject(choice.message) ? choice.message : {};
  const content: JsonObject[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') {
    content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  }
  if (typeof message.content === 'string' && message.content !== '') {
    content.push({ type: 'text', text: message.content });
  }
  for (const call of objects(message.tool_calls)) {
    const fn = isObject(call.function) ? call.function : {};
    content.push({
      type: 'tool_use',
      id: text(call.id),
      name: text(fn.name),
      input: parseArguments(fn.arguments),
    });
  }
  return {
    id: anthropicMessageId(ctx.id),
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: stopOfFinish(choice.finish_reason),
    stop_sequence: null,
    usage: anthropicUsageObject(usage),
  };
}

/** Anthropic's ids start with msg_; the relay's answer id keeps the request id after it. */
export function anthropicMessageId(id: string): string {
  return `msg_${id.replace(/^chatcmpl-/, '')}`;
}
