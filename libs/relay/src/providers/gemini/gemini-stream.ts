/**
 * A streamGenerateContent (alt=sse) answer as OpenAI chunks. Each event is a whole
 * GenerateContentResponse holding the new parts only; function calls arrive whole (never split
 * over events); usageMetadata is cumulative, so the last one seen is the answer's usage.
 */
import type { ConvertContext, ConvertedFailure, StreamConverter } from '../chat-adaptor';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import {
  blockedPrompt,
  finishReason,
  openAiUsage,
  readParts,
  usageOfMetadata,
} from './gemini-answer';
import { geminiErrorInfo } from './gemini-errors';
import { compact, numberOf, objectOf, objectsOf } from './gemini-values';

export class GeminiStreamConverter implements StreamConverter {
  /** Candidates whose first chunk (with the role) went out. */
  private readonly started = new Set<number>();
  /** Tool calls sent so far per candidate: the next call's index and `call_<n>`. */
  private readonly calls = new Map<number, number>();
  private lastUsage: UpstreamUsage | undefined;
  private failed: ConvertedFailure | undefined;

  constructor(private readonly ctx: ConvertContext) {}

  event(data: JsonObject): JsonObject[] {
    this.lastUsage = usageOfMetadata(data.usageMetadata) ?? this.lastUsage;
    const error = objectOf(data.error);
    if (error) {
      // Google ends a failing stream with its error object as the last event.
      this.failed ??= {
        status: numberOf(error.code) ?? 500,
        info: geminiErrorInfo(JSON.stringify(data)),
      };
      return [];
    }
    const blocked = blockedPrompt(data);
    if (blocked) {
      this.failed ??= blocked;
      return [];
    }
    const out: JsonObject[] = [];
    objectsOf(data.candidates).forEach((candidate, position) => {
      const index = numberOf(candidate.index) ?? position;
      const before = this.calls.get(index) ?? 0;
      const { text, reasoning, toolCalls } = readParts(candidate, before);
      this.calls.set(index, before + toolCalls.length);
      const first = !this.started.has(index);
      const delta = compact({
        role: first ? 'assistant' : undefined,
        content: text === '' ? undefined : text,
        reasoning_content: reasoning === '' ? undefined : reasoning,
        tool_calls:
          toolCalls.length > 0 ? toolCalls.map((c, k) => ({ index: before + k, ...c })) : undefined,
      });
      if (first || Object.keys(delta).length > 0) {
        this.started.add(index);
        out.push(this.chunk(index, delta, null));
      }
      const finish = finishReason(candidate.finishReason, before + toolCalls.length > 0);
      if (finish) out.push(this.chunk(index, {}, finish));
    });
    return out;
  }

  end(): JsonObject[] {
    if (!this.lastUsage) return [];
    return [
      {
        id: this.ctx.id,
        object: 'chat.completion.chunk',
        created: this.ctx.created,
        model: this.ctx.model,
        choices: [],
        usage: openAiUsage(this.lastUsage),
      },
    ];
  }

  usage(): UpstreamUsage | undefined {
    return this.lastUsage;
  }

  failure(): ConvertedFailure | undefined {
    return this.failed;
  }

  private chunk(index: number, delta: JsonObject, finish: string | null): JsonObject {
    return {
      id: this.ctx.id,
      object: 'chat.completion.chunk',
      created: this.ctx.created,
      model: this.ctx.model,
      choices: [{ index, delta, logprobs: null, finish_reason: finish }],
    };
  }
}
