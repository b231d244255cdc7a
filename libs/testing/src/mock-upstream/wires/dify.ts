/**
 * Dify's service API in the mock: POST /v1/chat-messages. `response_mode: 'blocking'` answers one
 * JSON message; `streaming` answers `data:` events (message …, message_end with metadata.usage)
 * with a ping first, as Dify sends. Errors are `{code, message, status}`.
 */
import type { MockBehavior } from '../mock-behavior';
import { pieces, sendJson, usageOf, writeStream } from '../mock-kit';
import type { ProviderWire, WireCall } from './provider-wire';

const CONVERSATION = '45701982-8118-4bc5-8e9b-64562b4555f2';

function usage(behavior: MockBehavior) {
  const u = usageOf(behavior);
  return { ...u, total_price: '0', currency: 'USD', latency: 0.1 };
}

function chat(call: WireCall): void | Promise<void> {
  const { behavior, res, id } = call;
  const ids = {
    task_id: `task-${id}`,
    message_id: `msg-${id}`,
    conversation_id: CONVERSATION,
    created_at: Math.floor(Date.now() / 1000),
  };
  const metadata = { usage: usage(behavior), retriever_resources: [] };
  if (call.body['response_mode'] !== 'streaming') {
    return sendJson(res, 200, {
      event: 'message',
      id: ids.message_id,
      mode: 'chat',
      answer: pieces(behavior).join(''),
      metadata,
      ...ids,
    });
  }
  const frames = pieces(behavior).map((answer) =>
    JSON.stringify({ event: 'message', id: ids.message_id, answer, ...ids }),
  );
  const end = JSON.stringify({ event: 'message_end', id: ids.message_id, metadata, ...ids });
  return writeStream(res, behavior, [], frames, [end], {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    // Dify interleaves `event: ping` keep-alives; one before each frame exercises the framer.
    frame: (text) => `event: ping\n\ndata: ${text}\n\n`,
  });
}

const error = (status: number, code: string, message: string) => ({
  status,
  body: { code, message, status },
});

export const DIFY_WIRE: ProviderWire = {
  name: 'dify',
  matches: (method, path) => method === 'POST' && path.endsWith('/v1/chat-messages'),
  answer: chat,
  failure(kind, status) {
    switch (kind) {
      case 'invalid_key':
        return error(401, 'unauthorized', 'Access token is invalid');
      case 'rate_limit':
        return error(429, 'too_many_requests', 'Too many requests, please try again later.');
      case 'quota_exceeded':
        return error(
          400,
          'provider_quota_exceeded',
          'Your quota for Dify Hosted Model Provider has been exhausted. Please go to Settings -> Model Provider to complete your own provider credentials.',
        );
      case 'server_error':
        return error(500, 'internal_server_error', 'Internal Server Error.');
      default:
        return error(status, 'mock_status', `mock status ${status}`);
    }
  },
};
