/**
 * Google Gemini (channel type 24) behind the OpenAI hub: chat via generateContent /
 * streamGenerateContent (SSE with alt=sse), embeddings via batchEmbedContents, the key in
 * `x-goog-api-key` (never in the URL, where logs would keep it).
 */
import { withFields } from '@tollgate/domain';
import type { ChatAdaptor, ConvertContext, ProviderRequest, RequestContext } from '../chat-adaptor';
import { jsonPost } from '../provider-request';
import { GEMINI_DEFAULT_VERSION, type GeminiSettings } from '../provider-settings';
import type { RelayEndpoint, WireChannel } from '../../openai/openai-wire';
import type { JsonObject } from '../../openai/request-body';
import { geminiChatAnswer, geminiEmbedAnswer } from './gemini-answer';
import { geminiErrorInfo } from './gemini-errors';
import { geminiChatBody, geminiEmbedBody } from './gemini-request';
import { GeminiStreamConverter } from './gemini-stream';

/** `gemini.version_settings` for the upstream model: the URL's API version. */
export function geminiApiVersion(gemini: GeminiSettings | undefined, model: string): string {
  return gemini?.versions[model] ?? gemini?.versions.default ?? GEMINI_DEFAULT_VERSION;
}

/** A generateContent body with `gemini.safety_settings` on it (every converted chat request). */
export function withSafetySettings(
  body: JsonObject,
  gemini: GeminiSettings | undefined,
): JsonObject {
  return gemini ? withFields(body, { safetySettings: gemini.safety }) : body;
}

/** A Gemini request of `method` for `model` on `channel` with these body bytes. */
function geminiCall(
  channel: Pick<WireChannel, 'baseUrl' | 'key'>,
  model: string,
  method: string,
  stream: boolean,
  body: Buffer,
  ctx?: RequestContext,
): ProviderRequest {
  const version = encodeURIComponent(geminiApiVersion(ctx?.settings?.gemini, model));
  const url = new URL(
    `${channel.baseUrl}/${version}/models/${encodeURIComponent(model)}:${method}`,
  );
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-goog-api-key': channel.key,
  };
  if (stream) headers.accept = 'text/event-stream';
  return jsonPost(url, headers, body);
}

function geminiRequest(
  endpoint: RelayEndpoint,
  openai: JsonObject,
  channel: WireChannel,
  upstreamModel: string,
  stream: boolean,
  ctx?: RequestContext,
): ProviderRequest {
  if (endpoint === 'embeddings') {
    const body = geminiEmbedBody(openai, upstreamModel);
    return geminiCall(
      channel,
      upstreamModel,
      'batchEmbedContents',
      false,
      Buffer.from(JSON.stringify(body)),
      ctx,
    );
  }
  const chat = withSafetySettings(geminiChatBody(openai, upstreamModel), ctx?.settings?.gemini);
  const body = Buffer.from(JSON.stringify(chat));
  return stream
    ? geminiCall(channel, upstreamModel, 'streamGenerateContent?alt=sse', true, body, ctx)
    : geminiCall(channel, upstreamModel, 'generateContent', false, body, ctx);
}

/**
 * A Gemini client's own request for a Gemini channel: its bytes as they came (the model is in
 * the path, so a mapped model changes only the URL; its own safetySettings are its choice);
 * streams always as SSE.
 */
export function geminiNativeRequest(
  raw: Buffer,
  _body: Record<string, unknown>,
  channel: WireChannel,
  upstreamModel: string,
  stream: boolean,
  _clientHeaders?: Readonly<Record<string, string | undefined>>,
  ctx?: RequestContext,
): ProviderRequest {
  return stream
    ? geminiCall(channel, upstreamModel, 'streamGenerateContent?alt=sse', true, raw, ctx)
    : geminiCall(channel, upstreamModel, 'generateContent', false, raw, ctx);
}

export const GEMINI_ADAPTOR: ChatAdaptor = {
  name: 'gemini',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat', 'embeddings']),
  request: (endpoint, openai, channel, upstreamModel, stream, _now, ctx) =>
    geminiRequest(endpoint, openai, channel, upstreamModel, stream, ctx),
  response: (endpoint: RelayEndpoint, provider: JsonObject, ctx: ConvertContext) =>
    endpoint === 'embeddings' ? geminiEmbedAnswer(provider, ctx) : geminiChatAnswer(provider, ctx),
  stream: (ctx) => new GeminiStreamConverter(ctx),
  error: (_status, text) => geminiErrorInfo(text),
};
