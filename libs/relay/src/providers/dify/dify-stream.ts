/**
 * Dify's streaming chat as OpenAI chunks. Events are `data:` objects named by their `event`
 * member: message / agent_message carry answer deltas, agent_thought the agent's reasoning
 * (repeated per thought id as it grows, so only the new part is sent), message_end the usage,
 * error a failure; ping, workflow and node events carry nothing for the client.
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedFailure, StreamConverter } from '../chat-adaptor';
import { text } from '../json-parts';
import { difyFailure, difyUsage, usageBody } from './dify-response';

export class DifyStreamConverter implements StreamConverter {
  private started = false;
  private finished = false;
  /** Thought text already sent, per agent_thought id. */
  private readonly thoughts = new Map<string, string>();
  private seenUsage: UpstreamUsage | undefined;
  private seenFailure: ConvertedFailure | undefined;

  constructor(private readonly ctx: ConvertContext) {}

  event(data: JsonObject): JsonObject[] {
    switch (data.event) {
      case 'message':
      case 'agent_message':
        return this.delta({ content: text(data.answer) });
      case 'agent_thought':
        return this.delta({ reasoning_content: this.newThought(data) });
      case 'message_end': {
        this.seenUsage = difyUsage(data) ?? this.seenUsage;
        const out = this.delta({});
        if (!this.finished) {
          this.finished = true;
          out.push(this.chunk({}, 'stop'));
        }
        return out;
      }
      case 'error':
        this.seenFailure ??= difyFailure(data);
        return [];
      default:
        return [];
    }
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

  /** The part of a thought not sent yet (all of it when it was rewritten, not extended). */
  private newThought(data: JsonObject): string {
    const id = text(data.id);
    const thought = text(data.thought);
    const sent = this.thoughts.get(id) ?? '';
    this.thoughts.set(id, thought);
    return thought.startsWith(sent) ? thought.slice(sent.length) : thought;
  }

  /** The role chunk first, then `delta` unless all its texts are empty. */
  private delta(delta: Record<string, string>): JsonObject[] {
    const out: JsonObject[] = [];
    if (!this.started) {
      this.started = true;
      out.push(this.chunk({ role: 'assistant', content: '' }, null));
    }
    if (Object.values(delta).some((value) => value !== '')) out.push(this.chunk(delta, null));
    return out;
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
