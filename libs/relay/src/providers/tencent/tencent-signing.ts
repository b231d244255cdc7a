/**
 * TencentCloud API signature v3 (TC3-HMAC-SHA256), following Tencent's published steps:
 * 1. CanonicalRequest = method, URI, query, canonical headers, signed header names, hex SHA-256 of
 *    the payload, joined by newlines;
 * 2. StringToSign = algorithm, timestamp, credential scope (`<UTC date>/<service>/tc3_request`),
 *    hex SHA-256 of the canonical request;
 * 3. the signing key is HMAC-SHA256 chained over the date, the service and `tc3_request`, starting
 *    from `"TC3" + SecretKey`; the signature is the hex HMAC of StringToSign with it.
 * Only content-type and host are signed, as Tencent's example does.
 */
import { createHash, createHmac } from 'node:crypto';

export const TC3_ALGORITHM = 'TC3-HMAC-SHA256';

export interface Tc3Request {
  readonly secretId: string;
  readonly secretKey: string;
  /** The product, e.g. `hunyuan` (the host's first label). */
  readonly service: string;
  readonly host: string;
  readonly contentType: string;
  readonly payload: string | Buffer;
  /** Unix seconds (also sent as X-TC-Timestamp). */
  readonly timestamp: number;
  readonly method?: 'POST' | 'GET';
  readonly path?: string;
  readonly query?: string;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) =>
  createHmac('sha256', key).update(data).digest();

/** The UTC date of a timestamp, as the credential scope wants it (YYYY-MM-DD). */
export function tc3Date(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

/** The Authorization header value for `req`. */
export function tc3Authorization(req: Tc3Request): string {
  const signedHeaders = 'content-type;host';
  const canonicalRequest = [
    req.method ?? 'POST',
    req.path ?? '/',
    req.query ?? '',
    `content-type:${req.contentType.toLowerCase()}\nhost:${req.host.toLowerCase()}\n`,
    signedHeaders,
    sha256Hex(req.payload),
  ].join('\n');
  const date = tc3Date(req.timestamp);
  const scope = `${date}/${req.service}/tc3_request`;
  const stringToSign = [
    TC3_ALGORITHM,
    String(req.timestamp),
    scope,
    sha256Hex(canonicalRequest),
  ].join('\n');
  const secretDate = hmac(`TC3${req.secretKey}`, date);
  const secretService = hmac(secretDate, req.service);
  const secretSigning = hmac(secretService, 'tc3_request');
  const signature = createHmac('sha256', secretSigning).update(stringToSign).digest('hex');
  return `${TC3_ALGORITHM} Credential=${req.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
