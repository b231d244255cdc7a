/**
 * DashScope's SSE stream (`event:result` frames, `incremental_output: true`) as OpenAI chunks.
 * Every event carries the usage so far, so the last one seen is the answer's; an `error` event
 * carries `{code, message}`.
 */
import type { JsonObject } from '../../openai/request-body';
import { isObject, objects, text } from '../json-parts';
import { ChunkConverter } from '../openai-chunks';
import { aliFailure, aliFinish, aliUsage } from './ali-response';

export class AliStreamConverter extends ChunkConverter {
  private finished = false;

  event(data: JsonObject): JsonObject[] {
    // An `error` event's HTTP status is only in an SSE comment: the code decides the status.
    const failure = aliFailure(data);
    if (failure) {
      this.seenFailure ??= failure;
      return [];
    }
    this.seenUsage = aliUsage(data.usage) ?? this.seenUsage;
    const output = isObject(data.output) ? data.output : {};
    const out: JsonObject[] = [];
    for (const choice of objects(output.choices)) {
      const message = isObject(choice.message) ? choice.message : {};
      out.push(...this.opening());
      const reasoning = text(message.reasoning_content);
      if (reasoning !== '') out.push(this.chunk({ reasoning_content: reasoning }));
      const content = text(message.content);
      if (content !== '') out.push(this.chunk({ content }));
      const calls = objects(message.tool_calls);
      // DashScope streams tool calls as OpenAI-style deltas (index, id on the first piece).
      if (calls.length > 0) out.push(this.chunk({ tool_calls: calls }));
      const finish = aliFinish(choice.finish_reason);
      if (finish && !this.finished) {
        this.finished = true;
        out.push(this.chunk({}, finish));
      }
    }
    return out;
  }
}
