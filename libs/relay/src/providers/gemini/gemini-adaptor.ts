/**
 * Google Gemini (channel type 24) behind the OpenAI hub: chat via generateContent /
 * streamGenerateContent (SSE with alt=sse), embeddings via batchEmbedContents, the key in
 * `x-goog-api-key` (never in the URL, where logs would keep it).
 */
import type { ChatAdaptor, ConvertContext, ProviderRequest } from '../chat-adaptor';
import { jsonPost } from '../provider-request';
import type { RelayEndpoint, WireChannel } from '../../openai/openai-wire';
import type { JsonObject } from '../../openai/request-body';
import { geminiChatAnswer, geminiEmbedAnswer } from './gemini-answer';
import { geminiErrorInfo } from './gemini-errors';
import { geminiChatBody, geminiEmbedBody } from './gemini-request';
import { GeminiStreamConverter } from './gemini-stream';

/** A Gemini request of `method` for `model` on `channel` with these body bytes. */
function geminiCall(
  channel: Pick<WireChannel, 'baseUrl' | 'key'>,
  model: string,
  method: string,
  stream: boolean,
  body: Buffer,
): ProviderRequest {
  const url = new URL(`${channel.baseUrl}/v1beta/models/${encodeURIComponent(model)}:${method}`);
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
): ProviderRequest {
  if (endpoint === 'embeddings') {
    const body = geminiEmbedBody(openai, upstreamModel);
    return geminiCall(
      channel,
      upstreamModel,
      'batchEmbedContents',
      false,
      Buffer.from(JSON.stringify(body)),
    );
  }
  const body = Buffer.from(JSON.stringify(geminiChatBody(openai, upstreamModel)));
  return stream
    ? geminiCall(channel, upstreamModel, 'streamGenerateContent?alt=sse', true, body)
    : geminiCall(channel, upstreamModel, 'generateContent', false, body);
}

/**
 * A Gemini client's own request for a Gemini channel: its bytes as they came (the model is in
 * the path, so a mapped model changes only the URL); streams always as SSE.
 */
export function geminiNativeRequest(
  raw: Buffer,
  _body: Record<string, unknown>,
  channel: WireChannel,
  upstreamModel: string,
  stream: boolean,
): ProviderRequest {
  return stream
    ? geminiCall(channel, upstreamModel, 'streamGenerateContent?alt=sse', true, raw)
    : geminiCall(channel, upstreamModel, 'generateContent', false, raw);
}

export const GEMINI_ADAPTOR: ChatAdaptor = {
  name: 'gemini',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat', 'embeddings']),
  request: (endpoint, openai, channel, upstreamModel, stream) =>
    geminiRequest(endpoint, openai, channel, upstreamModel, stream),
  response: (endpoint: RelayEndpoint, provider: JsonObject, ctx: ConvertContext) =>
    endpoint === 'embeddings' ? geminiEmbedAnswer(provider, ctx) : geminiChatAnswer(provider, ctx),
  stream: (ctx) => new GeminiStreamConverter(ctx),
  error: (_status, text) => geminiErrorInfo(text),
};
