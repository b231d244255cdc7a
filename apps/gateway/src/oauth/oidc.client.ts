import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import type { ExternalProfile } from './external-profile';
import { IdTokenRefused, IdTokenVerifier } from './id-token-verifier';
import { OidcDiscovery } from './oidc-discovery';
import {
  type ConfiguredEndpoints,
  mergeEndpoints,
  needsDiscovery,
  type OidcEndpoints,
} from './oidc-endpoints';
import type { OidcFlowSecrets } from './oidc-flow-secrets';
import { callProviderJson, isRecord, ProviderCallError, text } from './provider-http';

/** The scopes asked for; new-api's console asks for the same. */
const OIDC_SCOPE = 'openid profile email';

/**
 * OpenID Connect sign-in, in new-api's two steps and with the id_token verified in both flows.
 * new-api's console sends the browser to `oidc.authorization_endpoint` with the client id and a
 * state from GET /api/oauth/state (no nonce, no PKCE: that console cannot add them); Tollgate's
 * console asks the server for the URL (`authorizationUrl`: state, nonce and an S256 PKCE
 * challenge). Either way the code comes back to GET /api/oauth/oidc and is exchanged at
 * `oidc.token_endpoint` with the client secret (and the PKCE verifier in our flow). The id_token of
 * that answer is verified against the provider's keys and names the user (`sub`); the user info
 * endpoint adds the email (required, as in new-api) and names, and must name the same subject.
 * Endpoints left empty are read from `oidc.well_known`, the only source of the issuer and keys.
 */
@Injectable()
export class OidcClient {
  private readonly logger = new Logger('OidcAuth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsCache,
    private readonly discovery: OidcDiscovery,
    private readonly idTokens: IdTokenVerifier,
  ) {}

  /**
   * The configured endpoints, the empty ones filled from the discovery document (cached): the
   * authorization endpoint new-api's console reads from /api/status.
   */
  async endpoints(): Promise<OidcEndpoints> {
    const configured = this.configured();
    const wellKnown = this.options.get('oidc.well_known');
    if (!needsDiscovery(configured) || !wellKnown) return mergeEndpoints(configured, null);
    return mergeEndpoints(configured, await this.discovery.read(wellKnown));
  }

  /**
   * Where Tollgate's console sends the browser: the authorization endpoint with this flow's state,
   * nonce and PKCE challenge.
   */
  async authorizationUrl(state: string, redirectUri: string, flow: OidcFlowSecrets) {
    const endpoints = await this.signInEndpoints();
    if (!endpoints.authorization) throw new ApiError('oauth.oidc_failed');
    const url = new URL(endpoints.authorization);
    for (const [key, value] of Object.entries({
      response_type: 'code',
      client_id: this.options.get('oidc.client_id'),
      redirect_uri: redirectUri,
      scope: OIDC_SCOPE,
      state,
      nonce: flow.nonce,
      code_challenge: flow.challenge,
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(key, value);
    return url.toString();
  }

  /**
   * Exchanges the code, verifies the id_token and reads the user info. `redirectUri` repeats the
   * authorization request's; `flow` is given when Tollgate's console started the sign-in.
   */
  async identify(
    code: string,
    redirectUri: string,
    flow?: OidcFlowSecrets,
  ): Promise<ExternalProfile> {
    const endpoints = await this.signInEndpoints();
    if (!endpoints.token || !endpoints.userInfo) throw new ApiError('oauth.oidc_failed');
    const clientId = this.options.get('oidc.client_id');
    const tokens = await this.exchange(endpoints, code, redirectUri, clientId, flow);
    const subject = await this.verifiedSubject(tokens.idToken, endpoints, clientId, flow);
    const info = await this.call(endpoints.userInfo, {
      headers: { Authorization: `Bearer ${tokens.accessToken}` },
    });
    if (info.status !== 200) {
      this.logger.warn(`user info refused: HTTP ${info.status}`);
      throw new ApiError('oauth.oidc_userinfo_failed');
    }
    const body = isRecord(info.body) ? info.body : {};
    const email = text(body, 'email');
    if (!text(body, 'sub') || !email) throw new ApiError('oauth.oidc_userinfo_empty');
    // OpenID Connect Core 5.3.2: user info about another subject must not be used.
    if (text(body, 'sub') !== subject) {
      this.logger.warn("user info subject differs from the id_token's");
      throw new ApiError('oauth.oidc_userinfo_failed');
    }
    const login = text(body, 'preferred_username') || email.split('@')[0] || '';
    return {
      provider: 'oidc',
      externalId: subject,
      login,
      displayName: text(body, 'name') || login,
    };
  }

  /** The token endpoint's access token and id_token for the code; both are required. */
  private async exchange(
    endpoints: OidcEndpoints,
    code: string,
    redirectUri: string,
    clientId: string,
    flow: OidcFlowSecrets | undefined,
  ): Promise<{ accessToken: string; idToken: string }> {
    const clientSecret = this.options.get('oidc.client_secret');
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    });
    if (flow) form.set('code_verifier', flow.verifier);
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
    };
    if (endpoints.basicAuthOnly) {
      // RFC 6749, section 2.3.1: both parts form-encoded before base64.
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
    const body = isRecord(exchange.body) ? exchange.body : {};
    const accessToken = text(body, 'access_token');
    if (!accessToken) {
      this.logger.warn(
        `token exchange refused: HTTP ${exchange.status} ${text(body, 'error').slice(0, 64)}`,
      );
      throw new ApiError('oauth.oidc_token_failed');
    }
    // The provider is an OpenID provider (scope openid): its answer must prove who signed in.
    const idToken = text(body, 'id_token');
    if (!idToken) {
      this.logger.warn('token answer without an id_token');
      throw new ApiError('oauth.oidc_token_failed');
    }
    return { accessToken, idToken };
  }

  /** The id_token's subject, once its signature and claims are verified; refused otherwise. */
  private async verifiedSubject(
    idToken: string,
    endpoints: OidcEndpoints,
    clientId: string,
    flow: OidcFlowSecrets | undefined,
  ): Promise<string> {
    try {
      return await this.idTokens.verify(idToken, endpoints.jwksUri, {
        issuer: endpoints.issuer,
        clientId,
        ...(flow ? { nonce: flow.nonce } : {}),
      });
    } catch (error) {
      if (!(error instanceof IdTokenRefused)) throw error;
      this.logger.warn(`id_token refused: ${error.message}`);
      throw new ApiError(
        error.keysUnreachable ? 'oauth.oidc_unreachable' : 'oauth.oidc_token_failed',
      );
    }
  }

  /**
   * For a sign-in the discovery document is always read: only it names the issuer and keys the
   * id_token is checked with, and a sign-in that cannot be checked is not started or finished.
   */
  private async signInEndpoints(): Promise<OidcEndpoints> {
    const wellKnown = this.options.get('oidc.well_known');
    const discovered = wellKnown ? await this.discovery.read(wellKnown) : null;
    const endpoints = mergeEndpoints(this.configured(), discovered);
    if (!endpoints.issuer || !endpoints.jwksUri) {
      this.logger.warn('no issuer or jwks_uri (oidc.well_known): an id_token cannot be verified');
      throw new ApiError('oauth.oidc_failed');
    }
    return endpoints;
  }

  private configured(): ConfiguredEndpoints {
    return {
      authorization: this.options.get('oidc.authorization_endpoint'),
      token: this.options.get('oidc.token_endpoint'),
      userInfo: this.options.get('oidc.user_info_endpoint'),
    };
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
