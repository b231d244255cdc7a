/**
 * Tencent Hunyuan (channel type 23) through the TencentCloud API: POST / on
 * hunyuan.tencentcloudapi.com with the action and version in X-TC-* headers, signed with
 * TC3-HMAC-SHA256 in request() (node:crypto signs synchronously; `now` is the timestamp).
 */
import { withFields } from '@tollgate/domain';
import type { RelayEndpoint, WireChannel } from '../../openai/openai-wire';
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

/** `req` with the TC3 authorization over its body, at the timestamp its X-TC-Timestamp names. */
function signed(req: ProviderRequest, channel: Pick<WireChannel, 'key'>): ProviderRequest {
  const key = parseTencentKey(channel.key);
  const { authorization: _previous, ...headers } = req.headers;
  const authorization = tc3Authorization({
    secretId: key.secretId,
    secretKey: key.secretKey,
    service: HUNYUAN_SERVICE,
    host: headers.host ?? '',
    contentType: CONTENT_TYPE,
    payload: req.body,
    timestamp: Number(headers['x-tc-timestamp']),
    path: req.path,
  });
  return withFields(req, { headers: withFields(headers, { authorization }) });
}

export const TENCENT_ADAPTOR: ChatAdaptor = {
  name: 'tencent',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat']),

  request(endpoint, openai, channel, upstreamModel, stream, now, ctx): ProviderRequest {
    if (endpoint !== 'chat') throw new Error(`tencent adaptor does not convert ${endpoint}`);
    // Throws TencentKeyError for a malformed key: the signature needs it now.
    parseTencentKey(channel.key);
    const base = channel.baseUrl.trim().replace(/\/+$/, '') || TENCENT_DEFAULT_BASE_URL;
    const url = new URL(`${base}/`);
    // The signature covers the body: a pass-through body is the one signed.
    const body =
      ctx?.passThroughBody ??
      Buffer.from(JSON.stringify(tencentChatBody(openai, upstreamModel, stream)));
    const headers: Record<string, string> = {
      'content-type': CONTENT_TYPE,
      // Signed: it must be the host the request reaches (a base URL override included).
      host: url.host,
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': HUNYUAN_VERSION,
      'x-tc-timestamp': String(Math.floor(now.getTime() / 1000)),
    };
    const region = channel.other.trim();
    if (REGION.test(region)) headers['x-tc-region'] = region;
    if (stream) headers.accept = 'text/event-stream';
    return signed(
      { method: 'POST', origin: url.origin, path: url.pathname, headers, body },
      channel,
    );
  },

  // Signed again over the body as sent: the gateway may have changed it since request() (the
  // channel's parameter override).
  authorize: async (req, channel) => signed(req, channel),

  response: (_endpoint, provider, ctx) => tencentChatAnswer(provider, ctx),
  stream: (ctx) => new TencentStreamConverter(ctx),
  error: tencentError,
};
