import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { ApiError } from '../shared/api-error';
import { FixedWindows } from './fixed-windows';

/**
 * Failed password checks per key (an account being logged into, a signed-in user confirming their
 * password): after PASSWORD_ATTEMPT_LIMIT failures within PASSWORD_ATTEMPT_WINDOW seconds every
 * further check of that key is refused, right or wrong, until the window ends. Counted per process:
 * N gateway processes allow N times the limit, still far from a guessing rate.
 */
@Injectable()
export class PasswordAttempts {
  private readonly failures: FixedWindows;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.failures = new FixedWindows(config.passwordAttempts);
  }

  /** Throws 429 when the key has used up its failures. */
  assertAllowed(key: string, now = Date.now()): void {
    if (this.failures.full(key, now)) throw new ApiError('common.too_many_requests', {}, 429);
  }

  recordFailure(key: string, now = Date.now()): void {
    this.failures.hit(key, now);
  }

  recordSuccess(key: string): void {
    this.failures.forget(key);
  }

  /**
   * Runs a password check under the limit: it counts as a failure from the start, and a success
   * clears the key. Counted before the hash runs, so parallel guesses each take a slot: counted
   * after, a burst all passed the limit while the first checks were still hashing.
   */
  async check(key: string, verify: () => Promise<boolean>): Promise<boolean> {
    this.assertAllowed(key);
    this.recordFailure(key);
    const ok = await verify();
    if (ok) this.recordSuccess(key);
    return ok;
  }
}
