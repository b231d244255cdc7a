/** Anthropic (channel type 14): the Messages API behind the OpenAI chat wire. */
import { type RelayEndpoint, type WireChannel } from '../../openai/openai-wire';
import type { ChatAdaptor, ProviderRequest } from '../chat-adaptor';
import { anthropicErrorOfBody } from './anthropic-errors';
import { anthropicRequestOf } from './anthropic-request';
import { openAiResponseOfAnthropic } from './anthropic-response';
import { AnthropicStreamConverter } from './anthropic-stream';

/** The API version every request states (the Messages API's only stable one). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Where a Messages request goes on `channel`, with its auth headers (no body). */
export function anthropicTarget(
  channel: Pick<WireChannel, 'baseUrl' | 'key'>,
  stream: boolean,
): Omit<ProviderRequest, 'body' | 'method'> {
  const url = new URL(`${channel.baseUrl.replace(/\/+$/, '')}/v1/messages`);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-key': channel.key,
    'anthropic-version': ANTHROPIC_VERSION,
  };
  if (stream) headers.accept = 'text/event-stream';
  return { origin: url.origin, path: `${url.pathname}${url.search}`, headers };
}

/** Client headers an Anthropic client may send that an Anthropic upstream must see too. */
const FORWARDED = ['anthropic-version', 'anthropic-beta'] as const;

/**
 * An Anthropic client's own request for an Anthropic channel: its bytes, re-serialised only when
 * the channel maps the model; its version and beta headers (Claude Code's features) kept.
 */
export function anthropicNativeRequest(
  raw: Buffer,
  body: Record<string, unknown>,
  channel: Pick<WireChannel, 'baseUrl' | 'key'>,
  upstreamModel: string,
  stream: boolean,
  clientHeaders: Readonly<Record<string, string | undefined>>,
): ProviderRequest {
  const target = anthropicTarget(channel, stream);
  for (const name of FORWARDED) {
    const value = clientHeaders[name];
    if (value) target.headers[name] = value;
  }
  const out =
    body.model === upstreamModel
      ? raw
      : Buffer.from(JSON.stringify({ ...body, model: upstreamModel }));
  return { ...target, method: 'POST', body: out };
}

export const ANTHROPIC_ADAPTOR: ChatAdaptor = {
  name: 'anthropic',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat']),
  request(_endpoint, openai, channel, upstreamModel, stream) {
    const body = anthropicRequestOf({ ...openai, stream }, upstreamModel);
    return {
      ...anthropicTarget(channel, stream),
      method: 'POST',
      body: Buffer.from(JSON.stringify(body)),
    };
  },
  response: (_endpoint, provider, ctx) => openAiResponseOfAnthropic(provider, ctx),
  stream: (ctx) => new AnthropicStreamConverter(ctx),
  error: (_status, text) => anthropicErrorOfBody(text),
};
