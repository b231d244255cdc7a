/** The POST most adaptors send: a URL split the way UpstreamTarget wants it, JSON bytes as body. */
import type { JsonObject } from '../openai/request-body';
import type { ProviderRequest } from './chat-adaptor';

export function jsonPost(
  url: URL,
  headers: Record<string, string>,
  body: JsonObject | Buffer,
): ProviderRequest {
  return {
    method: 'POST',
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    headers,
    body: Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body)),
  };
}
