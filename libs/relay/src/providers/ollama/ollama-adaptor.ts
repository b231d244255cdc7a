/**
 * Ollama (channel type 4) through its native API: /api/chat (NDJSON when streaming) and /api/embed.
 * A local Ollama needs no key; one behind an authenticating proxy gets it as a Bearer token.
 */
import type { JsonObject } from '../../openai/request-body';
import type { RelayEndpoint, WireChannel } from '../../openai/openai-wire';
import type { ChatAdaptor, ConvertContext, ProviderRequest } from '../chat-adaptor';
import { jsonPost } from '../provider-request';
import { ollamaChatBody, ollamaEmbedBody } from './ollama-request';
import { ollamaChatAnswer, ollamaEmbedAnswer, ollamaError } from './ollama-response';
import { OllamaStreamConverter } from './ollama-stream';

function post(
  channel: WireChannel,
  path: string,
  body: JsonObject,
  stream: boolean,
): ProviderRequest {
  const url = new URL(`${channel.baseUrl}${path}`);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (stream) headers.accept = 'application/x-ndjson';
  if (channel.key.trim() !== '') headers.authorization = `Bearer ${channel.key.trim()}`;
  return jsonPost(url, headers, body);
}

export const OLLAMA_ADAPTOR: ChatAdaptor = {
  name: 'ollama',
  framing: 'ndjson',
  endpoints: new Set<RelayEndpoint>(['chat', 'embeddings']),

  request(endpoint, openai, channel, upstreamModel, stream) {
    if (endpoint === 'chat') {
      return post(channel, '/api/chat', ollamaChatBody(openai, upstreamModel, stream), stream);
    }
    if (endpoint === 'embeddings') {
      return post(channel, '/api/embed', ollamaEmbedBody(openai, upstreamModel), false);
    }
    throw new Error(`ollama adaptor does not convert ${endpoint}`);
  },

  response(endpoint: RelayEndpoint, provider: JsonObject, ctx: ConvertContext) {
    return endpoint === 'embeddings'
      ? ollamaEmbedAnswer(provider, ctx)
      : ollamaChatAnswer(provider, ctx);
  },

  stream: (ctx) => new OllamaStreamConverter(ctx),
  error: ollamaError,
};
