/**
 * A streamGenerateContent (alt=sse) answer as OpenAI chunks. Each event is a whole
 * GenerateContentResponse holding the new parts only; function calls arrive whole (never split
 * over events); usageMetadata is cumulative, so the last one seen is the answer's usage.
 */
import type { JsonObject } from '../../openai/request-body';
import { defined, numberOf, objectOf, objects } from '../json-parts';
import { ChunkConverter, chatChunk } from '../openai-chunks';
import { blockedPrompt, finishReason, readParts, usageOfMetadata } from './gemini-answer';
import { geminiErrorInfo } from './gemini-errors';

export class GeminiStreamConverter extends ChunkConverter {
  /** Candidates whose first chunk (with the role) went out. */
  private readonly started = new Set<number>();
  /** Tool calls sent so far per candidate: the next call's index and `call_<n>`. */
  private readonly calls = new Map<number, number>();

  event(data: JsonObject): JsonObject[] {
    this.seenUsage = usageOfMetadata(data.usageMetadata) ?? this.seenUsage;
    const error = objectOf(data.error);
    if (error) {
      // Google ends a failing stream with its error object as the last event.
      this.seenFailure ??= {
        status: numberOf(error.code) ?? 500,
        info: geminiErrorInfo(JSON.stringify(data)),
      };
      return [];
    }
    const blocked = blockedPrompt(data);
    if (blocked) {
      this.seenFailure ??= blocked;
      return [];
    }
    const out: JsonObject[] = [];
    objects(data.candidates).forEach((candidate, position) => {
      const index = numberOf(candidate.index) ?? position;
      const before = this.calls.get(index) ?? 0;
      const { text, reasoning, toolCalls } = readParts(candidate, before);
      this.calls.set(index, before + toolCalls.length);
      const first = !this.started.has(index);
      const delta = defined({
        role: first ? 'assistant' : undefined,
        content: text === '' ? undefined : text,
        reasoning_content: reasoning === '' ? undefined : reasoning,
        tool_calls:
          toolCalls.length > 0 ? toolCalls.map((c, k) => ({ index: before + k, ...c })) : undefined,
      });
      if (first || Object.keys(delta).length > 0) {
        this.started.add(index);
        out.push(chatChunk(this.ctx, delta, null, index));
      }
      const finish = finishReason(candidate.finishReason, before + toolCalls.length > 0);
      if (finish) out.push(chatChunk(this.ctx, {}, finish, index));
    });
    return out;
  }
}
