/**
 * Anthropic's Messages API in the mock: `POST /v1/messages` answered as JSON or, with
 * `stream: true`, as the documented SSE event sequence (`event:` + `data:` frames); failures in
 * Anthropic's error shape. The request's `anthropic-version` is not checked; its key is recorded.
 * What Anthropic refuses of thinking (a prefill with it included) is refused the same way.
 */
import type { MockFailure } from '../mock-behavior';
import { sendJson } from '../mock-kit';
import { anthropicMessage, writeAnthropicSse } from './anthropic-messages';
import type { ProviderWire, WireCall, WireFailure } from './provider-wire';
import { answerAnthropicToolUse, toolCallOf, toolResultFault } from './tool-calls';

type Body = Record<string, unknown>;

/** What Anthropic refuses of a request's thinking, in its words; undefined when it is valid. */
export function thinkingFault(body: Body): string | undefined {
  const thinking = body.thinking as Body | undefined;
  if (thinking?.type === 'enabled') {
    const budget = thinking.budget_tokens;
    if (typeof budget !== 'number' || budget < 1024)
      return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if (typeof body.max_tokens !== 'number' || budget >= body.max_tokens)
      return '`max_tokens` must be greater than `thinking.budget_tokens`';
  }
  if (thinking?.type === 'enabled' || thinking?.type === 'adaptive') {
    if (body.temperature !== undefined && body.temperature !== 1)
      return '`temperature` may only be set to 1 when thinking is enabled';
    if (body.top_k !== undefined) return '`top_k` is not supported when thinking is enabled';
    const choice = (body.tool_choice as Body | undefined)?.type;
    if (choice === 'any' || choice === 'tool')
      return 'Thinking may not be enabled when tool_choice forces tool use.';
    const prefill = prefillFault(body);
    if (prefill) return prefill;
  }
  const messages = Array.isArray(body.messages) ? (body.messages as Body[]) : [];
  for (const [m, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [c, block] of (message.content as Body[]).entries()) {
      if (
        block.type === 'thinking' &&
        (typeof block.signature !== 'string' || block.signature === '')
      )
        return `messages.${m}.content.${c}: Invalid \`signature\` in \`thinking\` block`;
    }
  }
  return undefined;
}

/** With thinking on, a final assistant turn (a prefill) must start with a thinking block. */
function prefillFault(body: Body): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as Body[]) : [];
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return undefined;
  const first = Array.isArray(last.content) ? (last.content as Body[])[0]?.type : 'text';
  if (first === 'thinking' || first === 'redacted_thinking') return undefined;
  return (
    `messages.${messages.length - 1}.content.0.type: Expected \`thinking\` or ` +
    `\`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is enabled, a ` +
    'final `assistant` message must start with a thinking block.'
  );
}

/** Claude 4.6 and later names (opus/sonnet/haiku 4-6 and up, 5 and up): no prefill accepted. */
const REFUSES_PREFILL = /^claude-(?:opus|sonnet|haiku)-(?:4-(?:[6-9]|\d{2})|[5-9])(?!\d)/;

/** The newest models refuse a conversation that ends with the assistant's turn. */
export function modelPrefillFault(body: Body): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as Body[]) : [];
  if (messages[messages.length - 1]?.role !== 'assistant') return undefined;
  if (typeof body.model !== 'string' || !REFUSES_PREFILL.test(body.model)) return undefined;
  return 'This model does not support assistant message prefill. The conversation must end with a user message.';
}

function answer(call: WireCall): void | Promise<void> {
  const fault =
    thinkingFault(call.body) ?? modelPrefillFault(call.body) ?? toolResultFault(call.body);
  if (fault) {
    const refused = error(400, fault);
    return sendJson(call.res, refused.status, refused.body);
  }
  const id = `msg_mock_${call.id}`;
  const tool = toolCallOf(call);
  if (tool) return answerAnthropicToolUse(call, id, tool);
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
