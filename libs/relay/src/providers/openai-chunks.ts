/**
 * The OpenAI chat shapes every converting adaptor answers in (the hub wire): the usage object,
 * chat.completion answers and chat.completion.chunk stream objects, built in one place so every
 * provider's conversion looks the same to the client.
 */
import { withFields } from '@tollgate/domain';
import type { JsonObject } from '../openai/request-body';
import type { UpstreamUsage } from '../openai/usage-reader';
import type { ConvertContext, ConvertedFailure, StreamConverter } from './chat-adaptor';

/** OpenAI's usage object; a details object is sent only when it counts something. */
export function openAiUsage(usage: UpstreamUsage): JsonObject {
  const body: JsonObject = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
  if (usage.cachedTokens > 0) body.prompt_tokens_details = { cached_tokens: usage.cachedTokens };
  if (usage.reasoningTokens) {
    body.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  }
  return body;
}

/** One choice of a chat.completion. */
export function chatChoice(message: JsonObject, finish: string, index = 0): JsonObject {
  return { index, message, logprobs: null, finish_reason: finish };
}

/** A non-stream chat.completion answer (usage left out when the provider reported none). */
export function chatCompletion(
  ctx: ConvertContext,
  choices: JsonObject[],
  usage: UpstreamUsage | undefined,
): JsonObject {
  const body: JsonObject = {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices,
  };
  if (usage) body.usage = openAiUsage(usage);
  return body;
}

/** A chat.completion.chunk with one choice's delta (and its finish reason on the last). */
export function chatChunk(
  ctx: ConvertContext,
  delta: JsonObject,
  finish: string | null = null,
  index = 0,
): JsonObject {
  return {
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index, delta, logprobs: null, finish_reason: finish }],
  };
}

/** What a stream's end() owes: the `{choices: [], usage}` chunk, or nothing without usage. */
export function usageChunks(ctx: ConvertContext, usage: UpstreamUsage | undefined): JsonObject[] {
  if (!usage) return [];
  return [
    {
      id: ctx.id,
      object: 'chat.completion.chunk',
      created: ctx.created,
      model: ctx.model,
      choices: [],
      usage: openAiUsage(usage),
    },
  ];
}

/**
 * The state most stream converters keep: the role chunk sent once, the last usage and the first
 * failure seen. Subclasses read their provider's events in event().
 */
export abstract class ChunkConverter implements StreamConverter {
  private sentRole = false;
  protected seenUsage: UpstreamUsage | undefined;
  protected seenFailure: ConvertedFailure | undefined;

  constructor(protected readonly ctx: ConvertContext) {}

  abstract event(data: JsonObject, name?: string): JsonObject[];

  end(): JsonObject[] {
    return usageChunks(this.ctx, this.seenUsage);
  }

  usage(): UpstreamUsage | undefined {
    return this.seenUsage;
  }

  failure(): ConvertedFailure | undefined {
    return this.seenFailure;
  }

  protected chunk(delta: JsonObject, finish: string | null = null): JsonObject {
    return chatChunk(this.ctx, delta, finish);
  }

  /** The `{role: 'assistant', content: ''}` chunk the first time; nothing after. */
  protected opening(): JsonObject[] {
    if (this.sentRole) return [];
    this.sentRole = true;
    return [this.chunk({ role: 'assistant', content: '' })];
  }
}

/**
 * A chat.completion as the chunks a stream of it would have sent, usage last: for a provider that
 * answered a stream request with one whole JSON answer.
 */
export function chunksOfCompletion(
  completion: JsonObject,
  ctx: ConvertContext,
  usage: UpstreamUsage | undefined,
): JsonObject[] {
  const choices = Array.isArray(completion.choices) ? (completion.choices as JsonObject[]) : [];
  const out = choices.map((choice, index) => {
    const message = (choice.message ?? {}) as JsonObject;
    const delta = Array.isArray(message.tool_calls)
      ? withFields(message, {
          tool_calls: (message.tool_calls as JsonObject[]).map((call, i) => ({
            index: i,
            ...call,
          })),
        })
      : message;
    const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : 'stop';
    return chatChunk(ctx, delta, finish, index);
  });
  return [...out, ...usageChunks(ctx, usage)];
}
