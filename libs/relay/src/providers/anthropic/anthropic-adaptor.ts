/** Anthropic (channel type 14): the Messages API behind the OpenAI chat wire. */
import { withFields } from '@tollgate/domain';
import { type RelayEndpoint, type WireChannel } from '../../openai/openai-wire';
import type { JsonObject } from '../../openai/request-body';
import type { ChatAdaptor, ProviderRequest, RequestContext } from '../chat-adaptor';
import { anthropicErrorOfBody } from './anthropic-errors';
import {
  addClaudeModelHeaders,
  claudeDefaultMaxTokens,
  claudeMessagesBody,
  withThinkingAdapter,
} from './anthropic-settings';
import { openAiResponseOfAnthropic } from './anthropic-response';
import { AnthropicStreamConverter } from './anthropic-stream';
import { withoutUnsignedThinking } from './anthropic-thinking';

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

/** The Messages body a native client's body becomes under the `claude.*` settings. */
function nativeBody(
  body: Record<string, unknown>,
  upstreamModel: string,
  ctx: RequestContext | undefined,
): JsonObject {
  const claude = ctx?.settings?.claude;
  let out: JsonObject = withoutUnsignedThinking(
    body.model === upstreamModel ? body : withFields(body, { model: upstreamModel }),
  );
  if (!claude) return out;
  if (typeof out.max_tokens !== 'number' || out.max_tokens <= 0) {
    out = withFields(out, { max_tokens: claudeDefaultMaxTokens(claude, upstreamModel) });
  }
  return withThinkingAdapter(out, claude);
}

/**
 * An Anthropic client's own request for an Anthropic channel: its bytes, re-serialised only when
 * the channel maps the model or a `claude.*` setting changes it (global pass-through: never); its
 * version and beta headers (Claude Code's features) kept, the model's extra headers merged in.
 */
export function anthropicNativeRequest(
  raw: Buffer,
  body: Record<string, unknown>,
  channel: Pick<WireChannel, 'baseUrl' | 'key'>,
  upstreamModel: string,
  stream: boolean,
  clientHeaders: Readonly<Record<string, string | undefined>>,
  ctx?: RequestContext,
): ProviderRequest {
  const target = anthropicTarget(channel, stream);
  for (const name of FORWARDED) {
    const value = clientHeaders[name];
    if (value) target.headers[name] = value;
  }
  addClaudeModelHeaders(target.headers, ctx?.settings?.claude, ctx?.clientModel ?? upstreamModel);
  if (ctx?.passThroughBody)
    return withFields(target, { method: 'POST', body: ctx.passThroughBody });
  const out = nativeBody(body, upstreamModel, ctx);
  const sent = typeof out.model === 'string' ? out.model : upstreamModel;
  return withFields(target, {
    method: 'POST',
    body: out === body ? raw : Buffer.from(JSON.stringify(out)),
    ...(sent !== upstreamModel ? { upstreamModel: sent } : {}),
  });
}

export const ANTHROPIC_ADAPTOR: ChatAdaptor = {
  name: 'anthropic',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat']),
  request(_endpoint, openai, channel, upstreamModel, stream, _now, ctx) {
    const claude = ctx?.settings?.claude;
    const { body, answerPrefix } = claudeMessagesBody(openai, upstreamModel, stream, claude);
    const target = anthropicTarget(channel, stream);
    addClaudeModelHeaders(target.headers, claude, ctx?.clientModel ?? upstreamModel);
    const sent = typeof body.model === 'string' ? body.model : upstreamModel;
    return withFields(target, {
      method: 'POST',
      body: Buffer.from(JSON.stringify(body)),
      ...(sent !== upstreamModel ? { upstreamModel: sent } : {}),
      ...(answerPrefix !== undefined ? { answerPrefix } : {}),
    });
  },
  response: (_endpoint, provider, ctx) => openAiResponseOfAnthropic(provider, ctx),
  stream: (ctx) => new AnthropicStreamConverter(ctx),
  defaultCeiling: (upstreamModel, ctx) =>
    ctx?.settings?.claude ? claudeDefaultMaxTokens(ctx.settings.claude, upstreamModel) : undefined,
  error: (_status, text) => anthropicErrorOfBody(text),
};
