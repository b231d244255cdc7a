/**
 * Cohere (channel type 34) through its v2 API: /v2/chat (SSE when `stream` is true), /v2/rerank
 * and /v2/embed, with the key as a Bearer token.
 */
import type { JsonObject } from '../../openai/request-body';
import type { RelayEndpoint, WireChannel } from '../../openai/openai-wire';
import type { ChatAdaptor, ConvertContext, ProviderRequest } from '../chat-adaptor';
import { jsonPost } from '../provider-request';
import { cohereEmbedAnswer, cohereEmbedBody } from './cohere-embed';
import { cohereRerankAnswer, cohereRerankBody } from './cohere-rerank';
import { cohereChatBody } from './cohere-request';
import { cohereChatAnswer } from './cohere-response';
import { CohereStreamConverter } from './cohere-stream';
import { cohereError } from './cohere-usage';

function post(
  channel: WireChannel,
  path: string,
  body: JsonObject,
  stream: boolean,
): ProviderRequest {
  const url = new URL(`${channel.baseUrl}${path}`);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    authorization: `Bearer ${channel.key}`,
  };
  return jsonPost(url, headers, body);
}

export const COHERE_ADAPTOR: ChatAdaptor = {
  name: 'cohere',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat', 'rerank', 'embeddings']),

  request(endpoint, openai, channel, upstreamModel, stream) {
    switch (endpoint) {
      case 'chat':
        return post(channel, '/v2/chat', cohereChatBody(openai, upstreamModel, stream), stream);
      case 'rerank':
        return post(channel, '/v2/rerank', cohereRerankBody(openai, upstreamModel), false);
      case 'embeddings':
        return post(channel, '/v2/embed', cohereEmbedBody(openai, upstreamModel), false);
      default:
        throw new Error(`cohere adaptor does not convert ${endpoint}`);
    }
  },

  response(endpoint: RelayEndpoint, provider: JsonObject, ctx: ConvertContext) {
    if (endpoint === 'rerank') return cohereRerankAnswer(provider, ctx);
    if (endpoint === 'embeddings') return cohereEmbedAnswer(provider, ctx);
    return cohereChatAnswer(provider, ctx);
  },

  stream: (ctx) => new CohereStreamConverter(ctx),
  error: cohereError,
};
