/**
 * Google Vertex AI (channel type 41): Gemini models through generateContent /
 * streamGenerateContent and Claude through Anthropic's rawPredict / streamRawPredict, both on the
 * project and region of the channel's service account, authorized with its OAuth access token.
 * Bodies and answers are the Gemini and Anthropic adaptors' own; only URL, auth and the Claude
 * envelope (`anthropic_version` in the body, no `model`) differ.
 */
import { withFields } from '@tollgate/domain';
import type { RelayEndpoint, WireChannel } from '../../openai/openai-wire';
import type { JsonObject } from '../../openai/request-body';
import { ANTHROPIC_ADAPTOR } from '../anthropic/anthropic-adaptor';
import {
  addClaudeModelHeaders,
  claudeDefaultMaxTokens,
  claudeMessagesBody,
} from '../anthropic/anthropic-settings';
import type { ChatAdaptor, ProviderRequest, RequestContext } from '../chat-adaptor';
import { GEMINI_ADAPTOR, withSafetySettings } from '../gemini/gemini-adaptor';
import { geminiChatBody } from '../gemini/gemini-request';
import { isAnthropicAnswer, isAnthropicError, VertexStreamConverter } from './vertex-answer';
import { parseVertexKey, vertexRegion, type VertexServiceAccount } from './vertex-key';
import {
  vertexClaudeModelId,
  vertexPublisherOf,
  vertexUrl,
  type VertexPublisher,
} from './vertex-target';
import { VertexTokenCache } from './vertex-token';

/** The Messages API version Vertex accepts, stated in the body. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** Where authorize() gets access tokens (a VertexTokenCache; a stub in tests). */
export interface VertexTokens {
  accessToken(account: VertexServiceAccount, now: Date): Promise<string>;
}

const CHAT_ONLY: ReadonlySet<RelayEndpoint> = new Set<RelayEndpoint>(['chat']);

function call(
  channel: WireChannel,
  publisher: VertexPublisher,
  upstreamModel: string,
  method: string,
  stream: boolean,
  body: JsonObject,
): ProviderRequest {
  // Both throw VertexConfigError: project and region are part of the URL.
  const { projectId } = parseVertexKey(channel.key);
  const region = vertexRegion(channel.other, upstreamModel);
  const model = publisher === 'anthropic' ? vertexClaudeModelId(upstreamModel) : upstreamModel;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (stream) headers.accept = 'text/event-stream';
  return withFields(vertexUrl(channel, projectId, region, publisher, model, method), {
    headers,
    method: 'POST',
    body: Buffer.from(JSON.stringify(body)),
  });
}

function geminiRequest(
  openai: JsonObject,
  channel: WireChannel,
  upstreamModel: string,
  stream: boolean,
  ctx?: RequestContext,
): ProviderRequest {
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  // Vertex's URL is always v1 (gemini.version_settings is the Gemini API's), as in new-api.
  const body = withSafetySettings(geminiChatBody(openai, upstreamModel), ctx?.settings?.gemini);
  return call(channel, 'google', upstreamModel, method, stream, body);
}

function claudeRequest(
  openai: JsonObject,
  channel: WireChannel,
  upstreamModel: string,
  stream: boolean,
  ctx?: RequestContext,
): ProviderRequest {
  const claude = ctx?.settings?.claude;
  // The model lives in the URL (the `-thinking` adapter may cut it); Vertex refuses it in the body.
  const converted = claudeMessagesBody(openai, upstreamModel, stream, claude);
  const { model, ...messages } = converted.body;
  const sent = typeof model === 'string' ? model : upstreamModel;
  const body = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...messages };
  const method = stream ? 'streamRawPredict' : 'rawPredict';
  const req = call(channel, 'anthropic', sent, method, stream, body);
  addClaudeModelHeaders(req.headers, claude, ctx?.clientModel ?? upstreamModel);
  const extra: { upstreamModel?: string; answerPrefix?: string } = {};
  if (sent !== upstreamModel) extra.upstreamModel = sent;
  if (converted.answerPrefix !== undefined) extra.answerPrefix = converted.answerPrefix;
  return withFields(req, extra);
}

async function authorizeVertex(
  tokens: VertexTokens,
  req: ProviderRequest,
  channel: WireChannel,
  now: Date,
): Promise<ProviderRequest> {
  const token = await tokens.accessToken(parseVertexKey(channel.key), now);
  return withFields(req, {
    headers: withFields(req.headers, { authorization: `Bearer ${token}` }),
  });
}

/** Vertex for one publisher's models: exact conversions when the model is known up front. */
export function vertexPublisherAdaptor(
  publisher: VertexPublisher,
  tokens: VertexTokens,
): ChatAdaptor {
  const inner = publisher === 'anthropic' ? ANTHROPIC_ADAPTOR : GEMINI_ADAPTOR;
  const request = publisher === 'anthropic' ? claudeRequest : geminiRequest;
  return {
    name: publisher === 'anthropic' ? 'vertex-ai-claude' : 'vertex-ai-gemini',
    framing: 'sse',
    endpoints: CHAT_ONLY,
    request: (_endpoint, openai, channel, upstreamModel, stream, _now, ctx) =>
      request(openai, channel, upstreamModel, stream, ctx),
    authorize: (req, channel, now) => authorizeVertex(tokens, req, channel, now),
    response: (endpoint, provider, ctx) => inner.response(endpoint, provider, ctx),
    stream: (ctx) => inner.stream(ctx),
    error: (status, text) => inner.error(status, text),
  };
}

/**
 * The one adaptor channel type 41 registers: requests go to the publisher of the upstream model;
 * answers, stream events and errors are read by their shape (see vertex-answer.ts for why).
 */
export function vertexAdaptor(tokens: VertexTokens): ChatAdaptor {
  const claude = vertexPublisherAdaptor('anthropic', tokens);
  const gemini = vertexPublisherAdaptor('google', tokens);
  return {
    name: 'vertex-ai',
    framing: 'sse',
    endpoints: CHAT_ONLY,
    request: (endpoint, openai, channel, upstreamModel, stream, now, ctx) =>
      (vertexPublisherOf(upstreamModel) === 'anthropic' ? claude : gemini).request(
        endpoint,
        openai,
        channel,
        upstreamModel,
        stream,
        now,
        ctx,
      ),
    authorize: (req, channel, now) => authorizeVertex(tokens, req, channel, now),
    response: (endpoint, provider, ctx) =>
      (isAnthropicAnswer(provider) ? claude : gemini).response(endpoint, provider, ctx),
    stream: (ctx) => new VertexStreamConverter(ctx),
    error: (status, text) => (isAnthropicError(text) ? claude : gemini).error(status, text),
    defaultCeiling: (upstreamModel, ctx) =>
      vertexPublisherOf(upstreamModel) === 'anthropic' && ctx?.settings?.claude
        ? claudeDefaultMaxTokens(ctx.settings.claude, upstreamModel)
        : undefined,
  };
}

/** One token cache for the process: tokens are per service account, not per channel. */
const SHARED_TOKENS = new VertexTokenCache();

/** The exact adaptor for an upstream model, for callers that know the model when answering. */
export function vertexAdaptorFor(upstreamModel: string, tokens: VertexTokens = SHARED_TOKENS) {
  return vertexPublisherAdaptor(vertexPublisherOf(upstreamModel), tokens);
}

/** Channel type 41 as the gateway uses it. */
export const VERTEX_ADAPTOR: ChatAdaptor = vertexAdaptor(SHARED_TOKENS);
