/**
 * Ollama's NDJSON chat stream as OpenAI chunks. Each line is `{message: {content, thinking?,
 * tool_calls?}, done: false}`; the last has `done: true`, `done_reason` and the counts. Tool calls
 * arrive whole (one line), so each becomes one complete delta.
 */
import type { JsonObject } from '../../openai/request-body';
import { isObject } from '../json-parts';
import { ChunkConverter } from '../openai-chunks';
import { finishReason, ollamaFailure, ollamaUsage, openAiToolCalls } from './ollama-response';

export class OllamaStreamConverter extends ChunkConverter {
  private toolCalls = 0;

  event(data: JsonObject): JsonObject[] {
    const failure = ollamaFailure(data);
    if (failure) {
      this.seenFailure ??= failure;
      return [];
    }
    const out = this.opening();
    const message = isObject(data.message) ? data.message : {};
    if (typeof message.thinking === 'string' && message.thinking !== '') {
      out.push(this.chunk({ reasoning_content: message.thinking }));
    }
    if (typeof message.content === 'string' && message.content !== '') {
      out.push(this.chunk({ content: message.content }));
    }
    const calls = openAiToolCalls(message.tool_calls, this.toolCalls, true);
    if (calls.length > 0) {
      this.toolCalls += calls.length;
      out.push(this.chunk({ tool_calls: calls }));
    }
    if (data.done === true) {
      this.seenUsage = ollamaUsage(data) ?? this.seenUsage;
      out.push(this.chunk({}, finishReason(data.done_reason, this.toolCalls > 0)));
    }
    return out;
  }
}
