/**
 * OpenAI's Responses API in the mock: `POST /v1/responses` as a JSON `response` object or, with
 * `stream: true`, the documented semantic events (response.created … output_text.delta …
 * response.completed with usage). Failures keep the OpenAI error shape of the default wire.
 */
import type { MockFailure } from '../mock-behavior';
import { NAMED_SSE_FRAMES, now, pieces, sendJson, usageOf, writeStream } from '../mock-kit';
import type { ProviderWire, WireCall, WireFailure } from './provider-wire';

function usage(call: WireCall) {
  const { prompt_tokens, completion_tokens } = usageOf(call.behavior);
  return {
    input_tokens: prompt_tokens,
    input_tokens_details: { cached_tokens: call.behavior.usage?.cached_tokens ?? 0 },
    output_tokens: completion_tokens,
    output_tokens_details: { reasoning_tokens: call.behavior.usage?.reasoning_tokens ?? 0 },
    total_tokens: prompt_tokens + completion_tokens,
  };
}

function response(call: WireCall, status: 'in_progress' | 'completed') {
  const text = pieces(call.behavior).join('');
  return {
    id: `resp_mock_${call.id}`,
    object: 'response',
    created_at: now(),
    status,
    model: call.model,
    output:
      status === 'completed'
        ? [
            {
              type: 'message',
              id: `msg_mock_${call.id}`,
              status: 'completed',
              role: 'assistant',
              content: [{ type: 'output_text', text, annotations: [] }],
            },
          ]
        : [],
    usage: status === 'completed' ? usage(call) : null,
  };
}

function answer(call: WireCall): void | Promise<void> {
  if (call.body.stream !== true) return sendJson(call.res, 200, response(call, 'completed'));
  const itemId = `msg_mock_${call.id}`;
  const event = (type: string, data: Record<string, unknown>, seq: number) =>
    JSON.stringify({ type, sequence_number: seq, ...data });
  const parts = pieces(call.behavior);
  const head = [
    event('response.created', { response: response(call, 'in_progress') }, 0),
    event(
      'response.output_item.added',
      { output_index: 0, item: { type: 'message', id: itemId, role: 'assistant', content: [] } },
      1,
    ),
  ];
  const frames = parts.map((delta, i) =>
    event(
      'response.output_text.delta',
      { item_id: itemId, output_index: 0, content_index: 0, delta },
      i + 2,
    ),
  );
  const tail = [
    event(
      'response.output_text.done',
      { item_id: itemId, output_index: 0, content_index: 0, text: parts.join('') },
      parts.length + 2,
    ),
    event('response.completed', { response: response(call, 'completed') }, parts.length + 3),
  ];
  return writeStream(call.res, call.behavior, head, frames, tail, NAMED_SSE_FRAMES);
}

export const OPENAI_RESPONSES_WIRE: ProviderWire = {
  name: 'openai-responses',
  matches: (method, path) => method === 'POST' && path.endsWith('/v1/responses'),
  answer,
  failure(kind: MockFailure | 'status', status: number): WireFailure {
    const messages: Record<string, [number, string, string]> = {
      invalid_key: [401, 'Incorrect API key provided.', 'invalid_api_key'],
      rate_limit: [429, 'Rate limit reached for requests.', 'rate_limit_exceeded'],
      quota_exceeded: [429, 'You exceeded your current quota.', 'insufficient_quota'],
      server_error: [500, 'The server had an error while processing your request.', 'server_error'],
    };
    const [code, message, type] = messages[kind] ?? [status, `mock status ${status}`, 'mock_error'];
    return { status: code, body: { error: { message, type, param: null, code: type } } };
  },
};
