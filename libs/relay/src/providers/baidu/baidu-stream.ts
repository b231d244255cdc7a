/**
 * ERNIE v1's SSE stream as OpenAI chunks. Each `data:` object has the new `result` text and
 * `is_end`; the usage (on every event) is the answer's on the last one.
 */
import type { JsonObject } from '../../openai/request-body';
import { text } from '../json-parts';
import { ChunkConverter } from '../openai-chunks';
import { baiduFailure, baiduFinish, baiduUsage } from './baidu-response';

export class BaiduStreamConverter extends ChunkConverter {
  event(data: JsonObject): JsonObject[] {
    const failure = baiduFailure(data);
    if (failure) {
      this.seenFailure ??= failure;
      return [];
    }
    const out = this.opening();
    const content = text(data.result);
    if (content !== '') out.push(this.chunk({ content }));
    this.seenUsage = baiduUsage(data.usage) ?? this.seenUsage;
    if (data.is_end === true || data.need_clear_history === true) {
      out.push(this.chunk({}, baiduFinish(data)));
    }
    return out;
  }
}
