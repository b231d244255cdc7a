/**
 * Dify (channel type 37): a Dify chat / agent / chatflow app through its service API,
 * POST /v1/chat-messages with the app's key as a Bearer token. The model name is not sent: the app
 * decides its model.
 */
import type { RelayEndpoint } from '../../openai/openai-wire';
import type { ChatAdaptor, ProviderRequest } from '../chat-adaptor';
import { jsonPost } from '../provider-request';
import { difyChatBody } from './dify-request';
import { difyChatAnswer, difyError } from './dify-response';
import { DifyStreamConverter } from './dify-stream';

export const DIFY_CHANNEL_TYPE = 37;
export const DIFY_DEFAULT_BASE_URL = 'https://api.dify.ai';

export const DIFY_ADAPTOR: ChatAdaptor = {
  name: 'dify',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat']),

  request(endpoint, openai, channel, _upstreamModel, stream): ProviderRequest {
    if (endpoint !== 'chat') throw new Error(`dify adaptor does not convert ${endpoint}`);
    const base = channel.baseUrl.trim().replace(/\/+$/, '') || DIFY_DEFAULT_BASE_URL;
    // A base URL given with its /v1 (as Dify's console shows it) is not doubled.
    const url = new URL(`${base.replace(/\/v1$/, '')}/v1/chat-messages`);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${channel.key.trim()}`,
    };
    if (stream) headers.accept = 'text/event-stream';
    return jsonPost(url, headers, difyChatBody(openai, stream));
  },

  response: (_endpoint, provider, ctx) => difyChatAnswer(provider, ctx),
  stream: (ctx) => new DifyStreamConverter(ctx),
  error: difyError,
};
