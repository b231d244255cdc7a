import { Global, Module } from '@nestjs/common';
import { TurnstileGuard } from './turnstile.guard';
import { TurnstileVerifier } from './turnstile-verifier';

/** The human check, global so any controller can put TurnstileGuard on its routes. */
@Global()
@Module({
  providers: [TurnstileVerifier, TurnstileGuard],
  exports: [TurnstileVerifier, TurnstileGuard],
})
export class TurnstileModule {}
