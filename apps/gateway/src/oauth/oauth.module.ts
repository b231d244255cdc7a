import { Module } from '@nestjs/common';
import { UserRegistrationModule } from '../users/user-registration.module';
import { BindIdentityHandler } from './commands/bind-identity.handler';
import { SignInWithIdentityHandler } from './commands/sign-in-with-identity.handler';
import { GitHubClient } from './github.client';
import { IdTokenVerifier } from './id-token-verifier';
import { LinuxDoClient } from './linuxdo.client';
import { OAuthController } from './oauth.controller';
import { OAuthReplays } from './oauth-replays';
import { OidcClient } from './oidc.client';
import { OidcDiscovery } from './oidc-discovery';
import { WeChatClient } from './wechat.client';

/** Third-party sign-in and binding: GitHub, WeChat, Telegram, OpenID Connect and Linux DO. */
@Module({
  imports: [UserRegistrationModule],
  controllers: [OAuthController],
  providers: [
    OAuthReplays,
    GitHubClient,
    WeChatClient,
    OidcClient,
    OidcDiscovery,
    IdTokenVerifier,
    LinuxDoClient,
    SignInWithIdentityHandler,
    BindIdentityHandler,
  ],
  // /api/status names the OIDC authorization endpoint (possibly from the discovery document).
  exports: [OidcClient],
})
export class OAuthModule {}
