/**
 * Alibaba DashScope (channel type 17) through its native text-generation API. Streams are asked
 * with the `X-DashScope-SSE: enable` header (the body has no `stream` member).
 */
import type { RelayEndpoint } from '../../openai/openai-wire';
import type { ChatAdaptor, ProviderRequest } from '../chat-adaptor';
import { jsonPost } from '../provider-request';
import { aliChatBody } from './ali-request';
import { aliChatAnswer, aliError } from './ali-response';
import { AliStreamConverter } from './ali-stream';

export const ALI_CHANNEL_TYPE = 17;
export const ALI_DEFAULT_BASE_URL = 'https://dashscope.aliyuncs.com';
export const ALI_GENERATION_PATH = '/api/v1/services/aigc/text-generation/generation';

export const ALI_ADAPTOR: ChatAdaptor = {
  name: 'ali',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat']),

  request(endpoint, openai, channel, upstreamModel, stream): ProviderRequest {
    if (endpoint !== 'chat') throw new Error(`ali adaptor does not convert ${endpoint}`);
    const base = channel.baseUrl.trim().replace(/\/+$/, '') || ALI_DEFAULT_BASE_URL;
    const url = new URL(`${base}${ALI_GENERATION_PATH}`);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${channel.key.trim()}`,
    };
    if (stream) {
      headers.accept = 'text/event-stream';
      headers['x-dashscope-sse'] = 'enable';
    }
    return jsonPost(url, headers, aliChatBody(openai, upstreamModel, stream));
  },

  response: (_endpoint, provider, ctx) => aliChatAnswer(provider, ctx),
  stream: (ctx) => new AliStreamConverter(ctx),
  error: aliError,
};
