import { type DynamicModule, Global, Module, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { Authenticator } from './authenticator';
import { CriticalRateLimitGuard } from './critical-rate-limit.guard';
import { PasswordAttempts } from './password-attempts';
import { SESSION_USERS, type SessionUsers } from './session-users';

/**
 * Who calls and may they: the global role guard, sessions, access tokens, the critical rate limit.
 * `sessionUsers`: where users are looked up (the composition root passes the users read model).
 */
@Global()
@Module({})
export class AuthModule {
  static forRoot(sessionUsers: Type<SessionUsers>): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: SESSION_USERS, useClass: sessionUsers },
        Authenticator,
        CriticalRateLimitGuard,
        PasswordAttempts,
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [Authenticator, CriticalRateLimitGuard, PasswordAttempts],
    };
  }
}
