/**
 * Baidu ERNIE through Qianfan's v1 API (channel type 15). request() builds the call without
 * credentials; authorize() exchanges the `API_KEY|SECRET_KEY` key for an OAuth access token
 * (cached) and appends it as `?access_token=`.
 */
import { withFields } from '@tollgate/domain';
import type { RelayEndpoint, WireChannel } from '../../openai/openai-wire';
import type { ChatAdaptor, ProviderRequest } from '../chat-adaptor';
import { jsonPost } from '../provider-request';
import { parseBaiduKey } from './baidu-key';
import { BAIDU_CHAT_PATH, baiduChatBody, baiduEndpoint } from './baidu-request';
import { baiduChatAnswer, baiduError } from './baidu-response';
import { BaiduStreamConverter } from './baidu-stream';
import { BaiduTokenCache } from './baidu-token';

export const BAIDU_CHANNEL_TYPE = 15;
export const BAIDU_DEFAULT_BASE_URL = 'https://aip.baidubce.com';

export function baiduBaseUrl(channel: Pick<WireChannel, 'baseUrl'>): string {
  return channel.baseUrl.trim().replace(/\/+$/, '') || BAIDU_DEFAULT_BASE_URL;
}

/** The adaptor over a token cache (tests inject one with a fake fetch). */
export function baiduAdaptor(tokens: BaiduTokenCache): ChatAdaptor {
  return {
    name: 'baidu',
    framing: 'sse',
    endpoints: new Set<RelayEndpoint>(['chat']),

    request(endpoint, openai, channel, upstreamModel, stream): ProviderRequest {
      if (endpoint !== 'chat') throw new Error(`baidu adaptor does not convert ${endpoint}`);
      const endpointName = encodeURIComponent(baiduEndpoint(upstreamModel));
      const url = new URL(`${baiduBaseUrl(channel)}${BAIDU_CHAT_PATH}/${endpointName}`);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (stream) headers.accept = 'text/event-stream';
      return jsonPost(url, headers, baiduChatBody(openai, stream));
    },

    async authorize(req, channel, now) {
      // Throws BaiduKeyError for a malformed key or a refused exchange (the gateway fails over).
      const token = await tokens.accessToken(
        baiduBaseUrl(channel),
        parseBaiduKey(channel.key),
        now,
      );
      const joiner = req.path.includes('?') ? '&' : '?';
      return withFields(req, {
        path: `${req.path}${joiner}access_token=${encodeURIComponent(token)}`,
      });
    },

    response: (_endpoint, provider, ctx) => baiduChatAnswer(provider, ctx),
    stream: (ctx) => new BaiduStreamConverter(ctx),
    error: baiduError,
  };
}

/** Channel type 15 as the gateway uses it (one token cache for the process). */
export const BAIDU_ADAPTOR: ChatAdaptor = baiduAdaptor(new BaiduTokenCache());
