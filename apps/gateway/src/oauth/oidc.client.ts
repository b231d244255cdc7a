import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../infrastructure/injection-tokens';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import type { ExternalProfile } from './external-profile';
import {
  endpointsOfDiscovery,
  mergeEndpoints,
  needsDiscovery,
  type OidcEndpoints,
} from './oidc-endpoints';
import { callProviderJson, isRecord, ProviderCallError, text } from './provider-http';

/** A discovery document is read again after this long; a failed read is retried after the second. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_RETRY_MS = 60_000;

/**
 * OpenID Connect the way new-api does it (controller/oidc.go): the console sends the browser to
 * `oidc.authorization_endpoint` with the client id and a state from GET /api/oauth/state (no nonce,
 * no PKCE: new-api's console cannot add them); the code comes back to GET /api/oauth/oidc, is
 * exchanged at `oidc.token_endpoint` with the client secret, and `oidc.user_info_endpoint` says who
 * it is (sub and email required). Endpoints left empty are read from `oidc.well_known`.
 */
@Injectable()
export class OidcClient {
  private readonly logger = new Logger('OidcAuth');
  private discovery: { url: string; endpoints: OidcEndpoints | null; until: number } | null = null;
  private refreshing: { url: string; read: Promise<OidcEndpoints | null> } | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsCache,
  ) {}

  /** The configured endpoints, the empty ones filled from the discovery document (cached). */
  async endpoints(): Promise<OidcEndpoints> {
    const configured = {
      authorization: this.options.get('oidc.authorization_endpoint'),
      token: this.options.get('oidc.token_endpoint'),
      userInfo: this.options.get('oidc.user_info_endpoint'),
    };
    const wellKnown = this.options.get('oidc.well_known');
    if (!needsDiscovery(configured) || !wellKnown) return mergeEndpoints(configured, null);
    return mergeEndpoints(configured, await this.discover(wellKnown));
  }

  /** Exchanges the code and reads the user info; `redirectUri` repeats the authorize request's. */
  async identify(code: string, redirectUri: string): Promise<ExternalProfile> {
    const endpoints = await this.endpoints();
    if (!endpoints.token || !endpoints.userInfo) throw new ApiError('oauth.oidc_failed');
    const clientId = this.options.get('oidc.client_id');
    const clientSecret = this.options.get('oidc.client_secret');
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    });
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
    };
    if (endpoints.basicAuthOnly) {
      // RFC 6749 §2.3.1: both parts form-encoded before base64.
      const basic = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers['Authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
    } else {
      // new-api's way: the client credentials in the form (client_secret_post).
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    }
    const exchange = await this.call(endpoints.token, {
      method: 'POST',
      headers,
      body: form.toString(),
    });
    const accessToken = isRecord(exchange.body) ? text(exchange.body, 'access_token') : '';
    if (!accessToken) {
      const error = isRecord(exchange.body) ? text(exchange.body, 'error') : '';
      this.logger.warn(`token exchange refused: HTTP ${exchange.status} ${error.slice(0, 64)}`);
      throw new ApiError('oauth.oidc_token_failed');
    }
    const info = await this.call(endpoints.userInfo, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    if (info.status !== 200) {
      this.logger.warn(`user info refused: HTTP ${info.status}`);
      throw new ApiError('oauth.oidc_userinfo_failed');
    }
    const body = isRecord(info.body) ? info.body : {};
    const sub = text(body, 'sub');
    const email = text(body, 'email');
    if (!sub || !email || sub.length > 255) throw new ApiError('oauth.oidc_userinfo_empty');
    const login = text(body, 'preferred_username') || email.split('@')[0] || '';
    return { provider: 'oidc', externalId: sub, login, displayName: text(body, 'name') || login };
  }

  /**
   * The discovery document's endpoints, cached: one read at a time however many callers wait
   * (GET /api/status, polled by every console, asks for them), and once a read succeeded an expired
   * entry is answered from while the next read runs.
   */
  private discover(url: string): Promise<OidcEndpoints | null> | OidcEndpoints | null {
    const cached = this.discovery?.url === url ? this.discovery : null;
    if (cached && cached.until > Date.now()) return cached.endpoints;
    let refreshing = this.refreshing?.url === url ? this.refreshing : null;
    if (!refreshing) {
      const read: Promise<OidcEndpoints | null> = this.readDiscovery(url)
        .then((endpoints) => {
          const ttl = endpoints ? DISCOVERY_TTL_MS : DISCOVERY_RETRY_MS;
          this.discovery = { url, endpoints, until: Date.now() + ttl };
          return endpoints;
        })
        .finally(() => {
          if (this.refreshing?.read === read) this.refreshing = null;
        });
      refreshing = this.refreshing = { url, read };
    }
    // A good answer, though expired, serves while the next read runs; otherwise wait for it.
    return cached?.endpoints ?? refreshing.read;
  }

  private async readDiscovery(url: string): Promise<OidcEndpoints | null> {
    try {
      const answer = await callProviderJson(url, {}, this.config.oauth.timeoutMs);
      const endpoints = answer.status === 200 ? endpointsOfDiscovery(answer.body) : null;
      if (!endpoints) this.logger.warn(`discovery document unusable: HTTP ${answer.status}`);
      return endpoints;
    } catch (error) {
      // Nothing thrown here may escape: a read nobody waits for would reject unhandled.
      const reason = error instanceof ProviderCallError ? error.message : (error as Error).name;
      this.logger.warn(`discovery document unreachable: ${reason}`);
      return null;
    }
  }

  private async call(url: string, init: Parameters<typeof callProviderJson>[1]) {
    try {
      return await callProviderJson(url, init, this.config.oauth.timeoutMs);
    } catch (error) {
      if (!(error instanceof ProviderCallError)) throw error;
      this.logger.warn(`provider unreachable: ${error.message}`);
      throw new ApiError('oauth.oidc_unreachable');
    }
  }
}
