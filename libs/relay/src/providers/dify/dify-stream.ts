/**
 * Dify's streaming chat as OpenAI chunks. Events are `data:` objects named by their `event`
 * member: message / agent_message carry answer deltas, agent_thought the agent's reasoning
 * (repeated per thought id as it grows, so only the new part is sent), message_end the usage,
 * error a failure; ping, workflow and node events carry nothing for the client.
 */
import type { JsonObject } from '../../openai/request-body';
import { text } from '../json-parts';
import { ChunkConverter } from '../openai-chunks';
import { difyFailure, difyUsage } from './dify-response';

export class DifyStreamConverter extends ChunkConverter {
  private finished = false;
  /** Thought text already sent, per agent_thought id. */
  private readonly thoughts = new Map<string, string>();

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
    const out = this.opening();
    if (Object.values(delta).some((value) => value !== '')) out.push(this.chunk(delta));
    return out;
  }
}
