/**
 * Anthropic Messages answers built from a mock behaviour: the JSON message and the stream's
 * events. Anthropic's own wire sends them as SSE; Bedrock wraps the same events in its binary
 * event stream.
 */
import type { MockBehavior } from '../mock-behavior';
import { NAMED_SSE_FRAMES, pieces, usageOf, writeStream } from '../mock-kit';
import type { WireCall } from './provider-wire';

/** Anthropic usage from the behaviour: prompt_tokens includes the cached and cache-written ones. */
export function anthropicUsage(behavior: MockBehavior) {
  const { prompt_tokens, completion_tokens } = usageOf(behavior);
  const cached = behavior.usage?.cached_tokens ?? 0;
  const creation = behavior.usage?.cache_creation_tokens ?? 0;
  return {
    input_tokens: Math.max(0, prompt_tokens - cached - creation),
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: cached,
    output_tokens: completion_tokens,
  };
}

/** The reasoning the mock answers with when a request enables thinking. */
export const MOCK_THOUGHT = 'Thinking it through first.';

/** Whether the request asks for thinking (enabled with a budget, or adaptive). */
function thinks(call: WireCall): boolean {
  const thinking = call.body.thinking as { type?: unknown } | undefined;
  return thinking?.type === 'enabled' || thinking?.type === 'adaptive';
}

/** What the mock's answer continues with after a `{` prefill: the whole text parses as JSON. */
export const MOCK_JSON_REST = '"ok":true}';

/** The text of the request's final assistant turn (a prefill), '' when it ends with the user. */
function prefillOf(call: WireCall): string {
  const messages = Array.isArray(call.body.messages)
    ? (call.body.messages as Array<Record<string, unknown>>)
    : [];
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return '';
  if (typeof last.content === 'string') return last.content;
  const blocks = Array.isArray(last.content)
    ? (last.content as Array<Record<string, unknown>>)
    : [];
  return blocks
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('');
}

/** The reply's pieces: after a `{` prefill (no content asked for), the rest of a JSON object. */
function replyPieces(call: WireCall): string[] {
  const continuesJson = prefillOf(call).trimEnd().endsWith('{');
  if (!continuesJson || call.behavior.content !== undefined) return pieces(call.behavior);
  return pieces({ ...call.behavior, content: MOCK_JSON_REST });
}

/** The signature Anthropic would put on the mock's thinking block (opaque to clients). */
const signatureOf = (id: string) => `mock-signature-${id}`;

export function anthropicMessage(call: WireCall, id: string) {
  const thought = thinks(call)
    ? [{ type: 'thinking', thinking: MOCK_THOUGHT, signature: signatureOf(id) }]
    : [];
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: call.model,
    content: [...thought, { type: 'text', text: replyPieces(call).join('') }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage(call.behavior),
  };
}

export interface AnthropicEvents {
  readonly head: Array<Record<string, unknown>>;
  /** One content_block_delta per piece of the reply. */
  readonly frames: Array<Record<string, unknown>>;
  readonly tail: Array<Record<string, unknown>>;
}

/** The documented event sequence of a streamed text answer (its thought first, when asked). */
export function anthropicStreamEvents(call: WireCall, id: string): AnthropicEvents {
  const usage = anthropicUsage(call.behavior);
  // With thinking, block 0 is the thought (its text, then its signature) and the answer is block 1.
  const thought = thinks(call)
    ? [
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: MOCK_THOUGHT },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'signature_delta', signature: signatureOf(id) },
        },
        { type: 'content_block_stop', index: 0 },
      ]
    : [];
  const text = thought.length > 0 ? 1 : 0;
  return {
    head: [
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: call.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: Math.min(1, usage.output_tokens) },
        },
      },
      ...thought,
      { type: 'content_block_start', index: text, content_block: { type: 'text', text: '' } },
    ],
    frames: replyPieces(call).map((piece) => ({
      type: 'content_block_delta',
      index: text,
      delta: { type: 'text_delta', text: piece },
    })),
    tail: [
      { type: 'content_block_stop', index: text },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
      { type: 'message_stop' },
    ],
  };
}

/** The stream events as Anthropic's SSE (its own API and Vertex's streamRawPredict). */
export function writeAnthropicSse(call: WireCall, id: string): Promise<void> {
  const events = anthropicStreamEvents(call, id);
  const json = (list: Array<Record<string, unknown>>) => list.map((e) => JSON.stringify(e));
  return writeStream(
    call.res,
    call.behavior,
    json(events.head),
    json(events.frames),
    json(events.tail),
    NAMED_SSE_FRAMES,
  );
}
