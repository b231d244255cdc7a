/**
 * ERNIE v1's SSE stream as OpenAI chunks. Each `data:` object has the new `result` text and
 * `is_end`; the usage (on every event) is the answer's on the last one.
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedFailure, StreamConverter } from '../chat-adaptor';
import { text } from '../json-parts';
import { baiduFailure, baiduFinish, baiduUsage, usageBody } from './baidu-response';

export class BaiduStreamConverter implements StreamConverter {
  private started = false;
  private seenUsage: UpstreamUsage | undefined;
  private seenFailure: ConvertedFailure | undefined;

  constructor(private readonly ctx: ConvertContext) {}

  event(data: JsonObject): JsonObject[] {
    const failure = baiduFailure(data);
    if (failure) {
      this.seenFailure ??= failure;
      return [];
    }
    const out: JsonObject[] = [];
    if (!this.started) {
      this.started = true;
      out.push(this.chunk({ role: 'assistant', content: '' }, null));
    }
    const content = text(data.result);
    if (content !== '') out.push(this.chunk({ content }, null));
    this.seenUsage = baiduUsage(data.usage) ?? this.seenUsage;
    if (data.is_end === true || data.need_clear_history === true) {
      out.push(this.chunk({}, baiduFinish(data)));
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
