/**
 * Hunyuan's SSE stream as OpenAI chunks: each `data:` object has `Choices: [{Delta: {Content},
 * FinishReason}]` and the usage so far; the last has a FinishReason.
 */
import type { JsonObject } from '../../openai/request-body';
import { isObject, objects, text } from '../json-parts';
import { ChunkConverter } from '../openai-chunks';
import { tencentFailure, tencentFinish, tencentUsage } from './tencent-response';

export class TencentStreamConverter extends ChunkConverter {
  private finished = false;

  event(data: JsonObject): JsonObject[] {
    const failure = tencentFailure(data);
    if (failure) {
      this.seenFailure ??= failure;
      return [];
    }
    this.seenUsage = tencentUsage(data.Usage) ?? this.seenUsage;
    const out: JsonObject[] = [];
    for (const choice of objects(data.Choices)) {
      out.push(...this.opening());
      const delta = isObject(choice.Delta) ? choice.Delta : {};
      const reasoning = text(delta.ReasoningContent);
      if (reasoning !== '') out.push(this.chunk({ reasoning_content: reasoning }));
      const content = text(delta.Content);
      if (content !== '') out.push(this.chunk({ content }));
      const finish = tencentFinish(choice.FinishReason);
      if (finish && !this.finished) {
        this.finished = true;
        out.push(this.chunk({}, finish));
      }
    }
    return out;
  }
}
