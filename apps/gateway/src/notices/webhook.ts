import { createHmac } from 'node:crypto';
import { type Dispatcher, request } from 'undici';
import {
  AddressRefusedError,
  checkedAddress,
  type AddressLookup,
} from '../shared/net/guarded-connect';

/** `sha256=<hex HMAC-SHA256 of the exact body, keyed with the user's secret>`. */
export const SIGNATURE_HEADER = 'X-Tollgate-Signature';

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * Why the URL may not be called ('' when it may): not http(s), a host that does not resolve, or one
 * the outbound address policy refuses (every address of the name is judged, so a name with one
 * public and one loopback address is refused too). Delivery judges the address again when it
 * connects (postWebhook through a guarded agent): DNS may answer differently then.
 */
export async function webhookAddressProblem(
  url: string,
  allowPrivate: boolean,
  lookup?: AddressLookup,
): Promise<'' | 'invalid' | 'unresolved' | 'private'> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'invalid';
  if (allowPrivate) return '';
  try {
    await checkedAddress(parsed.hostname, lookup ? { lookup } : {});
    return '';
  } catch (error) {
    return error instanceof AddressRefusedError ? 'private' : 'unresolved';
  }
}

export interface WebhookOutcome {
  readonly ok: boolean;
  /** HTTP status; 0 when none came. */
  readonly status: number;
  readonly error: string;
}

/**
 * One POST through `dispatcher` (a guarded agent unless private addresses are allowed); redirects
 * are not followed (they could lead anywhere).
 */
export async function postWebhook(
  url: string,
  body: string,
  secret: string,
  timeoutMs: number,
  dispatcher?: Dispatcher,
): Promise<WebhookOutcome> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Tollgate-Notices/1',
  };
  if (secret) headers[SIGNATURE_HEADER] = signBody(body, secret);
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      ...(dispatcher ? { dispatcher } : {}),
    });
    await res.body.dump().catch(() => undefined);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return { ok, status: res.statusCode, error: ok ? '' : `HTTP ${res.statusCode}` };
  } catch (error) {
    // A transport code (ECONNREFUSED, ADDRESS_REFUSED…), else the error's name (TimeoutError).
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      status: 0,
      error: typeof code === 'string' ? code : ((error as Error).name ?? 'error'),
    };
  }
}
