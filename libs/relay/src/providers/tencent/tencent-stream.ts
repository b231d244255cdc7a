/**
 * Hunyuan's SSE stream as OpenAI chunks: each `data:` object has `Choices: [{Delta: {Content},
 * FinishReason}]` and the usage so far; the last has a FinishReason.
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedFailure, StreamConverter } from '../chat-adaptor';
import { isObject, objects, text } from '../json-parts';
import { tencentFailure, tencentFinish, tencentUsage, usageBody } from './tencent-response';

export class TencentStreamConverter implements StreamConverter {
  private started = false;
  private finished = false;
  private seenUsage: UpstreamUsage | undefined;
  private seenFailure: ConvertedFailure | undefined;

  constructor(private readonly ctx: ConvertContext) {}

  event(data: JsonObject): JsonObject[] {
    const failure = tencentFailure(data);
    if (failure) {
      this.seenFailure ??= failure;
      return [];
    }
    this.seenUsage = tencentUsage(data.Usage) ?? this.seenUsage;
    const out: JsonObject[] = [];
    for (const choice of objects(data.Choices)) {
      if (!this.started) {
        this.started = true;
        out.push(this.chunk({ role: 'assistant', content: '' }, null));
      }
      const delta = isObject(choice.Delta) ? choice.Delta : {};
      const reasoning = text(delta.ReasoningContent);
      if (reasoning !== '') out.push(this.chunk({ reasoning_content: reasoning }, null));
      const content = text(delta.Content);
      if (content !== '') out.push(this.chunk({ content }, null));
      const finish = tencentFinish(choice.FinishReason);
      if (finish && !this.finished) {
        this.finished = true;
        out.push(this.chunk({}, finish));
      }
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
