/**
 * DashScope's SSE stream (`event:result` frames, `incremental_output: true`) as OpenAI chunks.
 * Every event carries the usage so far, so the last one seen is the answer's; an `error` event
 * carries `{code, message}`.
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedFailure, StreamConverter } from '../chat-adaptor';
import { isObject, objects, text } from '../json-parts';
import { aliFailure, aliFinish, aliUsage, usageBody } from './ali-response';

export class AliStreamConverter implements StreamConverter {
  private started = false;
  private finished = false;
  private seenUsage: UpstreamUsage | undefined;
  private seenFailure: ConvertedFailure | undefined;

  constructor(private readonly ctx: ConvertContext) {}

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
      if (!this.started) {
        this.started = true;
        out.push(this.chunk({ role: 'assistant', content: '' }, null));
      }
      const reasoning = text(message.reasoning_content);
      if (reasoning !== '') out.push(this.chunk({ reasoning_content: reasoning }, null));
      const content = text(message.content);
      if (content !== '') out.push(this.chunk({ content }, null));
      const calls = objects(message.tool_calls);
      // DashScope streams tool calls as OpenAI-style deltas (index, id on the first piece).
      if (calls.length > 0) out.push(this.chunk({ tool_calls: calls }, null));
      const finish = aliFinish(choice.finish_reason);
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
