import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { GatewaySecrets } from '../options/gateway-secrets';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import type { ExternalProfile } from './external-profile';
import { linuxdoProfile } from './linuxdo-user';
import { callProviderJson, isRecord, ProviderCallError, text } from './provider-http';

/** A provider's explanation echoed to the user is cut to this. */
const MAX_PROVIDER_MESSAGE = 200;

/**
 * Linux DO Connect as new-api uses it: the code is exchanged at `<LINUXDO_OAUTH_URL>/oauth2/token`
 * with the client id and secret as HTTP basic authentication, then `<LINUXDO_API_URL>/api/user`
 * says who it is. The access token is used once and forgotten.
 */
@Injectable()
export class LinuxDoClient {
  private readonly logger = new Logger('LinuxDoOAuth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsCache,
    private readonly secrets: GatewaySecrets,
  ) {}

  async identify(code: string, redirectUri: string): Promise<ExternalProfile> {
    const { linuxdoOAuthUrl, linuxdoApiUrl, timeoutMs } = this.config.oauth;
    const credentials = `${this.options.get('LinuxDOClientId')}:${this.options.get('LinuxDOClientSecret')}`;
    try {
      const exchange = await callProviderJson(
        `${linuxdoOAuthUrl}/oauth2/token`,
        {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUri,
          }).toString(),
        },
        timeoutMs,
      );
      const body = isRecord(exchange.body) ? exchange.body : {};
      const accessToken = text(body, 'access_token');
      if (!accessToken) {
        // Shown to the user and logged: the client secret is masked if the provider quotes it.
        const message = this.secrets
          .scrub(text(body, 'message') || text(body, 'error_description') || text(body, 'error'))
          .slice(0, MAX_PROVIDER_MESSAGE);
        this.logger.warn(`code exchange refused: HTTP ${exchange.status} ${message.slice(0, 64)}`);
        throw new ApiError('oauth.linuxdo_token_failed', { message });
      }
      const user = await callProviderJson(
        `${linuxdoApiUrl}/api/user`,
        { headers: { Authorization: `Bearer ${accessToken}` } },
        timeoutMs,
      );
      const profile = user.status === 200 ? linuxdoProfile(user.body) : null;
      if (!profile) {
        this.logger.warn(`user lookup failed: HTTP ${user.status}`);
        throw new ApiError('oauth.linuxdo_user_invalid');
      }
      return profile;
    } catch (error) {
      if (error instanceof ProviderCallError) {
        this.logger.warn(`Linux DO unreachable: ${error.message}`);
        throw new ApiError('oauth.linuxdo_unreachable');
      }
      throw error;
    }
  }
}
