import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type * as Jose from 'jose';
import type { JWTPayload } from 'jose';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../infrastructure/injection-tokens';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import type { ExternalProfile } from './external-profile';
import type { OAuthStateClaims } from './oauth-state';
import { callProviderJson, isRecord, ProviderCallError, text } from './provider-http';

const DISCOVERY_SUFFIX = '/.well-known/openid-configuration';
/** A provider's discovery document is read again after this long (keys rotate through the JWKS). */
const DISCOVERY_TTL_MS = 10 * 60_000;
/** Signatures accepted on id_tokens: asymmetric only (the JWKS holds public keys). */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'EdDSA',
];

export interface OidcProvider {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly jwksUri: string;
  /** client_secret_post when the provider supports only that; client_secret_basic otherwise. */
  readonly secretInBody: boolean;
}

const isHttpUrl = (value: string) => /^https?:\/\/[^\s]+$/i.test(value);

/**
 * A generic OpenID Connect provider (Tollgate's own addition): discovery from OidcDiscoveryUrl,
 * the authorization-code flow with state, nonce and PKCE (S256), and the id_token verified with
 * jose against the provider's JWKS (issuer, audience = client id, expiry, nonce).
 */
@Injectable()
export class OidcClient {
  private readonly logger = new Logger('OidcAuth');
  private discovery: { url: string; provider: OidcProvider; until: number } | null = null;
  private readonly keySets = new Map<string, ReturnType<typeof Jose.createRemoteJWKSet>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsCache,
  ) {}

  /** The provider's authorization URL for this state (the browser is sent there). */
  async authorizationUrl(claims: OAuthStateClaims): Promise<string> {
    const provider = await this.provider();
    const url = new URL(provider.authorizationEndpoint);
    const challenge = createHash('sha256')
      .update(claims.verifier ?? '')
      .digest('base64url');
    for (const [key, value] of Object.entries({
      response_type: 'code',
      client_id: this.options.get('OidcClientId'),
      redirect_uri: claims.redirectUri ?? '',
      scope: 'openid profile email',
      state: claims.state,
      nonce: claims.nonce ?? '',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(key, value);
    return url.toString();
  }

  /** Exchanges the code, verifies the id_token and says who signed in. */
  async identify(code: string, claims: OAuthStateClaims): Promise<ExternalProfile> {
    const provider = await this.provider();
    const clientId = this.options.get('OidcClientId');
    const clientSecret = this.options.get('OidcClientSecret');
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: claims.redirectUri ?? '',
      code_verifier: claims.verifier ?? '',
    });
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
    };
    if (provider.secretInBody) {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    } else {
      // RFC 6749 §2.3.1: both parts form-encoded before base64.
      const basic = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers['Authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
    }
    const answer = await this.call(provider.tokenEndpoint, {
      method: 'POST',
      headers,
      body: form.toString(),
    });
    const idToken = isRecord(answer.body) ? text(answer.body, 'id_token') : '';
    if (answer.status !== 200 || !idToken) {
      const error = isRecord(answer.body) ? text(answer.body, 'error') : '';
      this.logger.warn(`token exchange refused: HTTP ${answer.status} ${error.slice(0, 64)}`);
      throw new ApiError('oauth.oidc_failed');
    }
    const payload = await this.verify(idToken, provider, clientId);
    if (typeof payload['nonce'] !== 'string' || payload['nonce'] !== claims.nonce) {
      this.logger.warn('id_token nonce mismatch');
      throw new ApiError('oauth.oidc_failed');
    }
    const sub = payload.sub ?? '';
    if (!sub || sub.length > 255) throw new ApiError('oauth.oidc_failed');
    const claim = (key: string) => (typeof payload[key] === 'string' ? payload[key] : '');
    const email = claim('email');
    const login = claim('preferred_username') || claim('nickname') || email.split('@')[0] || '';
    return { provider: 'oidc', externalId: sub, login, displayName: claim('name') || login };
  }

  private async verify(idToken: string, provider: OidcProvider, clientId: string) {
    // Loaded on the first OpenID Connect sign-in, not at every start-up.
    const { createRemoteJWKSet, jwtVerify }: typeof Jose = await import('jose');
    let keys = this.keySets.get(provider.jwksUri);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(provider.jwksUri), {
        timeoutDuration: this.config.oauth.timeoutMs,
      });
      this.keySets.set(provider.jwksUri, keys);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, keys, {
        issuer: provider.issuer,
        audience: clientId,
        algorithms: ALGORITHMS,
        clockTolerance: 60,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      this.logger.warn(`id_token refused: ${(error as { code?: string }).code ?? 'invalid'}`);
      throw new ApiError('oauth.oidc_failed');
    }
    // With several audiences the token must be meant for us as its authorized party.
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload['azp'] !== clientId) {
      this.logger.warn('id_token azp is not this client');
      throw new ApiError('oauth.oidc_failed');
    }
    return payload;
  }

  /** The discovery document of OidcDiscoveryUrl (a base or the document's own URL), cached. */
  async provider(): Promise<OidcProvider> {
    const configured = this.options.get('OidcDiscoveryUrl');
    const url = configured.endsWith(DISCOVERY_SUFFIX) ? configured : configured + DISCOVERY_SUFFIX;
    const now = Date.now();
    if (this.discovery && this.discovery.url === url && this.discovery.until > now)
      return this.discovery.provider;
    const answer = await this.call(url, {});
    const doc = answer.body;
    const provider: OidcProvider | null = isRecord(doc)
      ? {
          issuer: text(doc, 'issuer'),
          authorizationEndpoint: text(doc, 'authorization_endpoint'),
          tokenEndpoint: text(doc, 'token_endpoint'),
          jwksUri: text(doc, 'jwks_uri'),
          secretInBody: (() => {
            const methods = doc['token_endpoint_auth_methods_supported'];
            return (
              Array.isArray(methods) &&
              methods.includes('client_secret_post') &&
              !methods.includes('client_secret_basic')
            );
          })(),
        }
      : null;
    if (
      answer.status !== 200 ||
      !provider ||
      !provider.issuer ||
      ![provider.authorizationEndpoint, provider.tokenEndpoint, provider.jwksUri].every(isHttpUrl)
    ) {
      this.logger.warn(`discovery document unusable: HTTP ${answer.status}`);
      throw new ApiError('oauth.oidc_failed');
    }
    this.discovery = { url, provider, until: now + DISCOVERY_TTL_MS };
    return provider;
  }

  private async call(url: string, init: Parameters<typeof callProviderJson>[1]) {
    try {
      return await callProviderJson(url, init, this.config.oauth.timeoutMs);
    } catch (error) {
      if (!(error instanceof ProviderCallError)) throw error;
      this.logger.warn(`provider unreachable: ${error.message}`);
      throw new ApiError('oauth.oidc_failed');
    }
  }
}
