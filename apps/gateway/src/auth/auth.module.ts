import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { Authenticator } from './authenticator';
import { CriticalRateLimitGuard } from './critical-rate-limit.guard';
import { PasswordAttempts } from './password-attempts';

/** Who calls and may they: the global role guard, sessions, access tokens, the critical rate limit. */
@Global()
@Module({
  providers: [
    Authenticator,
    CriticalRateLimitGuard,
    PasswordAttempts,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [Authenticator, CriticalRateLimitGuard, PasswordAttempts],
})
export class AuthModule {}
