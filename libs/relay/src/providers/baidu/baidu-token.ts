/**
 * Baidu's OAuth client-credentials exchange: `API_KEY|SECRET_KEY` → an access_token valid for
 * `expires_in` seconds (30 days). The only I/O of the adaptor; tokens are cached per base URL and
 * key until an hour before they expire, and concurrent calls for one key share one exchange.
 */
import { BaiduKeyError, type BaiduKey } from './baidu-key';

/** The part of `fetch` the exchange uses (injectable for tests). */
export type TokenFetch = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; signal?: AbortSignal },
) => Promise<{ status: number; text(): Promise<string> }>;

/** Refresh this long before the token expires (clock skew, long streams). */
export const BAIDU_TOKEN_MARGIN_MS = 60 * 60 * 1000;
const DEFAULT_LIFETIME_S = 30 * 24 * 60 * 60;
const EXCHANGE_TIMEOUT_MS = 15_000;

interface CachedToken {
  readonly token: string;
  readonly expiresAt: number;
}

export class BaiduTokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<CachedToken>>();

  constructor(
    private readonly fetchToken: TokenFetch = (url, init) => fetch(url, init),
    private readonly marginMs = BAIDU_TOKEN_MARGIN_MS,
  ) {}

  /** A valid access token for `key` at `baseUrl` (cached, or exchanged now). */
  async accessToken(baseUrl: string, key: BaiduKey, now: Date): Promise<string> {
    const id = `${baseUrl}\n${key.apiKey}\n${key.secretKey}`;
    const cached = this.tokens.get(id);
    if (cached && cached.expiresAt - this.marginMs > now.getTime()) return cached.token;
    let exchange = this.pending.get(id);
    if (!exchange) {
      exchange = this.exchange(baseUrl, key, now).finally(() => this.pending.delete(id));
      this.pending.set(id, exchange);
    }
    const fresh = await exchange;
    this.tokens.set(id, fresh);
    return fresh.token;
  }

  private async exchange(baseUrl: string, key: BaiduKey, now: Date): Promise<CachedToken> {
    const query = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: key.apiKey,
      client_secret: key.secretKey,
    });
    const res = await this.fetchToken(`${baseUrl}/oauth/2.0/token?${query.toString()}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
    const raw = await res.text();
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      // not JSON: reported below with the status
    }
    const token = body.access_token;
    if (typeof token !== 'string' || token === '') {
      // `{"error": "invalid_client", "error_description": "unknown client id"}`
      const why = [body.error_description, body.error_msg, body.error].find(
        (part): part is string => typeof part === 'string' && part !== '',
      );
      throw new BaiduKeyError(`Baidu access token exchange failed: ${why ?? `HTTP ${res.status}`}`);
    }
    const lifetime =
      typeof body.expires_in === 'number' && body.expires_in > 0
        ? body.expires_in
        : DEFAULT_LIFETIME_S;
    return { token, expiresAt: now.getTime() + lifetime * 1000 };
  }
}
