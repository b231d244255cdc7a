/**
 * Anthropic's Messages API in the mock: `POST /v1/messages` answered as JSON or, with
 * `stream: true`, as the documented SSE event sequence (`event:` + `data:` frames); failures in
 * Anthropic's error shape. The request's `anthropic-version` is not checked; its key is recorded.
 */
import type { MockFailure } from '../mock-behavior';
import { sendJson } from '../mock-kit';
import { anthropicMessage, writeAnthropicSse } from './anthropic-messages';
import type { ProviderWire, WireCall, WireFailure } from './provider-wire';

function answer(call: WireCall): void | Promise<void> {
  const id = `msg_mock_${call.id}`;
  if (call.body.stream !== true) return sendJson(call.res, 200, anthropicMessage(call, id));
  return writeAnthropicSse(call, id);
}

const TYPE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function error(status: number, message: string): WireFailure {
  const type = TYPE_OF_STATUS[status] ?? 'api_error';
  return { status, body: { type: 'error', error: { type, message } } };
}

export const ANTHROPIC_WIRE: ProviderWire = {
  name: 'anthropic',
  matches: (method, path) => method === 'POST' && path.endsWith('/v1/messages'),
  answer,
  failure(kind: MockFailure | 'status', status: number): WireFailure {
    switch (kind) {
      case 'invalid_key':
        return error(401, 'invalid x-api-key');
      case 'rate_limit':
        return error(429, 'Number of request tokens has exceeded your per-minute rate limit');
      case 'quota_exceeded':
        return error(400, 'Your credit balance is too low to access the Anthropic API.');
      case 'server_error':
        return error(500, 'Internal server error');
      default:
        return error(status, `mock status ${status}`);
    }
  },
};
