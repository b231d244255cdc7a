/**
 * OAuth access tokens for Vertex AI service accounts (the relay's only Vertex I/O): a JWT signed
 * with the account's private key is exchanged at its `token_uri` by google-auth-library, and the
 * token is reused until shortly before it expires (an hour), one per client_email.
 */
import { withFields } from '@tollgate/domain';
import { createHash } from 'node:crypto';
import type { Credentials } from 'google-auth-library';
import type { VertexServiceAccount } from './vertex-key';

export const VERTEX_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

export interface FetchedToken {
  readonly accessToken: string;
  /** How long it is valid from now, as the token endpoint said (expires_in). */
  readonly lifetimeMs: number;
}

/** One token request for an account (injectable for tests). */
export type TokenFetcher = (account: VertexServiceAccount) => Promise<FetchedToken>;

/** A token endpoint failure; says which account and endpoint, never the key. */
export class VertexTokenError extends Error {
  override readonly name = 'VertexTokenError';
}

/**
 * The token request through google-auth-library's JWT client, with `fetchImpl` as its HTTP.
 * The library always posts to Google's endpoint, so its transporter is pointed at the key's
 * token_uri; its own retries are off (the relay retries on another channel instead).
 */
export function serviceAccountTokenFetcher(
  fetchImpl: typeof fetch = fetch,
  timeoutMs = 10_000,
): TokenFetcher {
  return async (account) => {
    // Loaded on the first Vertex token: ~12 MiB the gateways without a Vertex channel never pay.
    const { JWT } = await import('google-auth-library');
    const client = new JWT({
      email: account.clientEmail,
      key: account.privateKey,
      scopes: [VERTEX_SCOPE],
      transporterOptions: { fetchImplementation: fetchImpl, timeout: timeoutMs },
    });
    client.transporter.interceptors.request.add({
      resolved: (options) => {
        options.url = new URL(account.tokenUri);
        options.retryConfig = withFields(options.retryConfig ?? {}, {
          retry: 0,
          noResponseRetries: 0,
        });
        return Promise.resolve(options);
      },
    });
    let credentials: Credentials;
    try {
      credentials = await client.authorize();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new VertexTokenError(
        `Vertex AI: no access token for ${account.clientEmail} from ${account.tokenUri}: ${reason}`,
      );
    }
    if (!credentials.access_token) {
      throw new VertexTokenError(
        `Vertex AI: ${account.tokenUri} answered no access_token for ${account.clientEmail}`,
      );
    }
    const expiry = credentials.expiry_date ?? 0;
    return { accessToken: credentials.access_token, lifetimeMs: Math.max(0, expiry - Date.now()) };
  };
}

interface Cached {
  readonly fingerprint: string;
  readonly token: string;
  /** When to fetch a new one (before the real expiry, so a call never carries a stale token). */
  readonly refreshAt: number;
}

/** The key material a token belongs to: a rotated key or another endpoint gets a new token. */
const fingerprintOf = (account: VertexServiceAccount): string =>
  createHash('sha256').update(`${account.privateKey}\n${account.tokenUri}`).digest('base64url');

export class VertexTokenCache {
  private readonly tokens = new Map<string, Cached>();
  /** Calls arriving together for one account share one token request. */
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly fetcher: TokenFetcher = serviceAccountTokenFetcher(),
    private readonly marginMs = 5 * 60_000,
  ) {}

  async accessToken(account: VertexServiceAccount, now: Date): Promise<string> {
    const fingerprint = fingerprintOf(account);
    const cached = this.tokens.get(account.clientEmail);
    if (cached && cached.fingerprint === fingerprint && now.getTime() < cached.refreshAt) {
      return cached.token;
    }
    const flightKey = `${account.clientEmail}\n${fingerprint}`;
    const inFlight = this.pending.get(flightKey);
    if (inFlight) return inFlight;
    const request = this.fetch(account, fingerprint, now).finally(() =>
      this.pending.delete(flightKey),
    );
    this.pending.set(flightKey, request);
    return request;
  }

  private async fetch(account: VertexServiceAccount, fingerprint: string, now: Date) {
    const { accessToken, lifetimeMs } = await this.fetcher(account);
    // A short-lived token keeps half its life as margin instead of the usual five minutes.
    const margin = Math.min(this.marginMs, lifetimeMs / 2);
    if (lifetimeMs > 0) {
      this.tokens.set(account.clientEmail, {
        fingerprint,
        token: accessToken,
        refreshAt: now.getTime() + lifetimeMs - margin,
      });
    }
    return accessToken;
  }
}
