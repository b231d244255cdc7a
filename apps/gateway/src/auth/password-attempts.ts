import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../infrastructure/injection-tokens';
import { ApiError } from '../shared/api-error';

/**
 * Failed password checks per key (an account being logged into, a signed-in user confirming their
 * password): after PASSWORD_ATTEMPT_LIMIT failures within PASSWORD_ATTEMPT_WINDOW seconds every
 * further check of that key is refused, right or wrong, until the window ends. Counted per process:
 * N gateway processes allow N times the limit, still far from a guessing rate.
 */
@Injectable()
export class PasswordAttempts {
  private readonly failures = new Map<string, { start: number; count: number }>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Throws 429 when the key has used up its failures. */
  assertAllowed(key: string, now = Date.now()): void {
    const { max, windowMs } = this.config.passwordAttempts;
    if (max === 0) return;
    const entry = this.failures.get(key);
    if (entry && now - entry.start < windowMs && entry.count >= max)
      throw new ApiError('common.too_many_requests', {}, 429);
  }

  recordFailure(key: string, now = Date.now()): void {
    const { max, windowMs } = this.config.passwordAttempts;
    if (max === 0) return;
    const entry = this.failures.get(key);
    if (!entry || now - entry.start >= windowMs) {
      this.failures.set(key, { start: now, count: 1 });
      this.sweep(now, windowMs);
    } else {
      entry.count += 1;
    }
  }

  recordSuccess(key: string): void {
    this.failures.delete(key);
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

  private sweep(now: number, windowMs: number): void {
    if (this.failures.size < 10_000) return;
    for (const [key, entry] of this.failures)
      if (now - entry.start >= windowMs) this.failures.delete(key);
  }
}
