/**
 * Cohere's v2 chat SSE stream as OpenAI chunks. Events are named by `data.type` (also sent as
 * the SSE `event:` name): message-start → the role chunk; content-delta → text (or thinking); the
 * tool-plan deltas → reasoning_content; tool-call-start/-delta → one OpenAI tool call, opened with
 * its id and name, then its argument pieces; message-end → the finish chunk and the usage.
 * content-start/-end, tool-call-end, citations and debug events carry nothing a chunk shows.
 */
import type { JsonObject } from '../../openai/request-body';
import { isObject } from '../json-parts';
import { ChunkConverter } from '../openai-chunks';
import { generationFailure } from './cohere-response';
import { cohereUsage, finishReason } from './cohere-usage';

/** `delta.message` of an event, or {}. */
function messageOf(data: JsonObject): JsonObject {
  const delta = isObject(data.delta) ? data.delta : {};
  return isObject(delta.message) ? delta.message : {};
}

/** A stream tool-call event holds one call (an object; an array is read for its first). */
function toolCallOf(message: JsonObject): JsonObject {
  const calls = message.tool_calls;
  const call = Array.isArray(calls) ? (calls as unknown[])[0] : calls;
  return isObject(call) ? call : {};
}

export class CohereStreamConverter extends ChunkConverter {
  private toolCalls = 0;

  event(data: JsonObject, name?: string): JsonObject[] {
    const type = typeof data.type === 'string' ? data.type : name;
    const out: JsonObject[] = [];
    const emit = (delta: JsonObject, finish: string | null = null) => {
      out.push(...this.opening());
      if (Object.keys(delta).length > 0 || finish !== null) out.push(this.chunk(delta, finish));
    };
    const message = messageOf(data);
    switch (type) {
      case 'message-start':
        emit({});
        break;
      case 'content-start':
      case 'content-delta': {
        const content = isObject(message.content) ? message.content : {};
        if (typeof content.text === 'string' && content.text !== '')
          emit({ content: content.text });
        if (typeof content.thinking === 'string' && content.thinking !== '') {
          emit({ reasoning_content: content.thinking });
        }
        break;
      }
      case 'tool-plan-delta':
        if (typeof message.tool_plan === 'string' && message.tool_plan !== '') {
          emit({ reasoning_content: message.tool_plan });
        }
        break;
      case 'tool-call-start': {
        const call = toolCallOf(message);
        const fn = isObject(call.function) ? call.function : {};
        const index = this.toolCalls++;
        emit({
          tool_calls: [
            {
              index,
              id: typeof call.id === 'string' ? call.id : `call_${index}`,
              type: 'function',
              function: {
                name: typeof fn.name === 'string' ? fn.name : '',
                arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
              },
            },
          ],
        });
        break;
      }
      case 'tool-call-delta': {
        const fn = toolCallOf(message).function;
        const args = isObject(fn) ? fn.arguments : undefined;
        if (typeof args === 'string' && args !== '' && this.toolCalls > 0) {
          emit({ tool_calls: [{ index: this.toolCalls - 1, function: { arguments: args } }] });
        }
        break;
      }
      case 'message-end':
        this.messageEnd(isObject(data.delta) ? data.delta : {}, emit);
        break;
      default:
        break;
    }
    return out;
  }

  private messageEnd(
    delta: JsonObject,
    emit: (delta: JsonObject, finish?: string | null) => void,
  ): void {
    this.seenUsage = cohereUsage(delta.usage) ?? this.seenUsage;
    const failure = generationFailure(delta.finish_reason, delta.error);
    if (failure) {
      this.seenFailure ??= failure;
      return;
    }
    const reason =
      delta.finish_reason === undefined && this.toolCalls > 0
        ? 'tool_calls'
        : finishReason(delta.finish_reason);
    emit({}, reason);
  }
}
