import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { GatewaySecrets } from '../options/gateway-secrets';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import type { ExternalProfile } from './external-profile';
import { callProviderJson, isRecord, ProviderCallError, text } from './provider-http';

/**
 * GitHub's web flow: the code is exchanged at `<GITHUB_OAUTH_URL>/login/oauth/access_token` with the
 * client id and secret, then `<GITHUB_API_URL>/user` says who it is. The access token is used once
 * and forgotten.
 */
@Injectable()
export class GitHubClient {
  private readonly logger = new Logger('GitHubOAuth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsCache,
    private readonly secrets: GatewaySecrets,
  ) {}

  async identify(code: string): Promise<ExternalProfile> {
    const { githubOAuthUrl, githubApiUrl, timeoutMs } = this.config.oauth;
    try {
      const exchange = await callProviderJson(
        `${githubOAuthUrl}/login/oauth/access_token`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            client_id: this.options.get('GitHubClientId'),
            client_secret: this.options.get('GitHubClientSecret'),
            code,
          }),
        },
        timeoutMs,
      );
      // A bad or used code is a 200 with {error, error_description}.
      const accessToken = isRecord(exchange.body) ? text(exchange.body, 'access_token') : '';
      if (exchange.status !== 200 || !accessToken) {
        const error = isRecord(exchange.body)
          ? this.secrets.scrub(text(exchange.body, 'error'))
          : '';
        this.logger.warn(`code exchange refused: HTTP ${exchange.status} ${error.slice(0, 64)}`);
        throw new ApiError('oauth.github_failed');
      }
      const user = await callProviderJson(
        `${githubApiUrl}/user`,
        {
          headers: {
            Authorization: `Bearer ${accessToken}`,
            Accept: 'application/vnd.github+json',
          },
        },
        timeoutMs,
      );
      const body = user.body;
      const id = isRecord(body) ? body['id'] : undefined;
      if (user.status !== 200 || !isRecord(body) || !Number.isSafeInteger(id) || Number(id) <= 0) {
        this.logger.warn(`user lookup failed: HTTP ${user.status}`);
        throw new ApiError('oauth.github_failed');
      }
      const login = text(body, 'login');
      return {
        provider: 'github',
        externalId: String(id),
        login,
        displayName: text(body, 'name') || login,
      };
    } catch (error) {
      if (error instanceof ProviderCallError) {
        this.logger.warn(`GitHub unreachable: ${error.message}`);
        throw new ApiError('oauth.github_failed');
      }
      throw error;
    }
  }
}
