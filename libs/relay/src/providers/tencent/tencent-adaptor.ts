/**
 * Tencent Hunyuan (channel type 23) through the TencentCloud API: POST / on
 * hunyuan.tencentcloudapi.com with the action and version in X-TC-* headers, signed with
 * TC3-HMAC-SHA256 in request() (node:crypto signs synchronously; `now` is the timestamp).
 */
import type { RelayEndpoint } from '../../openai/openai-wire';
import type { ChatAdaptor, ProviderRequest } from '../chat-adaptor';
import { parseTencentKey } from './tencent-key';
import { tencentChatBody } from './tencent-request';
import { tencentChatAnswer, tencentError } from './tencent-response';
import { tc3Authorization } from './tencent-signing';
import { TencentStreamConverter } from './tencent-stream';

export const TENCENT_CHANNEL_TYPE = 23;
export const TENCENT_DEFAULT_BASE_URL = 'https://hunyuan.tencentcloudapi.com';
export const HUNYUAN_SERVICE = 'hunyuan';
export const HUNYUAN_VERSION = '2023-09-01';
const CONTENT_TYPE = 'application/json';
// A region in the channel's `other` (e.g. ap-guangzhou) is sent; Hunyuan does not require one.
const REGION = /^[a-z]{2}-[a-z]+(-[a-z]+)?(-\d+)?$/;

export const TENCENT_ADAPTOR: ChatAdaptor = {
  name: 'tencent',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat']),

  request(endpoint, openai, channel, upstreamModel, stream, now, ctx): ProviderRequest {
    if (endpoint !== 'chat') throw new Error(`tencent adaptor does not convert ${endpoint}`);
    // Throws TencentKeyError for a malformed key: the signature needs it now.
    const key = parseTencentKey(channel.key);
    const base = channel.baseUrl.trim().replace(/\/+$/, '') || TENCENT_DEFAULT_BASE_URL;
    const url = new URL(`${base}/`);
    // The signature covers the body: a pass-through body is the one signed.
    const body =
      ctx?.passThroughBody ??
      Buffer.from(JSON.stringify(tencentChatBody(openai, upstreamModel, stream)));
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers: Record<string, string> = {
      'content-type': CONTENT_TYPE,
      // Signed: it must be the host the request reaches (a base URL override included).
      host: url.host,
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': HUNYUAN_VERSION,
      'x-tc-timestamp': String(timestamp),
      authorization: tc3Authorization({
        secretId: key.secretId,
        secretKey: key.secretKey,
        service: HUNYUAN_SERVICE,
        host: url.host,
        contentType: CONTENT_TYPE,
        payload: body,
        timestamp,
        path: url.pathname,
      }),
    };
    const region = channel.other.trim();
    if (REGION.test(region)) headers['x-tc-region'] = region;
    if (stream) headers.accept = 'text/event-stream';
    return { method: 'POST', origin: url.origin, path: url.pathname, headers, body };
  },

  response: (_endpoint, provider, ctx) => tencentChatAnswer(provider, ctx),
  stream: (ctx) => new TencentStreamConverter(ctx),
  error: tencentError,
};
