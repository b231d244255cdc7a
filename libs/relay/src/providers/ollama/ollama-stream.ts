/**
 * Ollama's NDJSON chat stream as OpenAI chunks. Each line is `{message: {content, thinking?,
 * tool_calls?}, done: false}`; the last has `done: true`, `done_reason` and the counts. Tool calls
 * arrive whole (one line), so each becomes one complete delta.
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedFailure, StreamConverter } from '../chat-adaptor';
import {
  finishReason,
  ollamaFailure,
  ollamaUsage,
  openAiToolCalls,
  usageBody,
} from './ollama-response';

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export class OllamaStreamConverter implements StreamConverter {
  private started = false;
  private toolCalls = 0;
  private seenUsage: UpstreamUsage | undefined;
  private seenFailure: ConvertedFailure | undefined;

  constructor(private readonly ctx: ConvertContext) {}

  event(data: JsonObject): JsonObject[] {
    const failure = ollamaFailure(data);
    if (failure) {
      this.seenFailure ??= failure;
      return [];
    }
    const out: JsonObject[] = [];
    if (!this.started) {
      this.started = true;
      out.push(this.chunk({ role: 'assistant', content: '' }, null));
    }
    const message = isObject(data.message) ? data.message : {};
    if (typeof message.thinking === 'string' && message.thinking !== '') {
      out.push(this.chunk({ reasoning_content: message.thinking }, null));
    }
    if (typeof message.content === 'string' && message.content !== '') {
      out.push(this.chunk({ content: message.content }, null));
    }
    const calls = openAiToolCalls(message.tool_calls, this.toolCalls, true);
    if (calls.length > 0) {
      this.toolCalls += calls.length;
      out.push(this.chunk({ tool_calls: calls }, null));
    }
    if (data.done === true) {
      this.seenUsage = ollamaUsage(data) ?? this.seenUsage;
      out.push(this.chunk({}, finishReason(data.done_reason, this.toolCalls > 0)));
    }
    return out;
  }

  end(): JsonObject[] {
    if (!this.seenUsage) return [];
    return [
      {
        id: this.ctx.id,
        object: 'chat.completion.chunk',
        created: this.ctx.created,
        model: this.ctx.model,
        choices: [],
        usage: usageBody(this.seenUsage),
      },
    ];
  }

  usage(): UpstreamUsage | undefined {
    return this.seenUsage;
  }

  failure(): ConvertedFailure | undefined {
    return this.seenFailure;
  }

  private chunk(delta: JsonObject, finish: string | null): JsonObject {
    return {
      id: this.ctx.id,
      object: 'chat.completion.chunk',
      created: this.ctx.created,
      model: this.ctx.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    };
  }
}
