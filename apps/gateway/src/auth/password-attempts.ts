import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { StreamCommands } from '../infrastructure/stream-commands';
import { ApiError } from '../shared/api-error';
import { FixedWindows } from './fixed-windows';
import { LoggedPasswordAttempts } from './logged-password-attempts';

/**
 * Failed password checks per key (an account being logged into, a signed-in user confirming their
 * password): after PASSWORD_ATTEMPT_LIMIT failures within PASSWORD_ATTEMPT_WINDOW seconds every
 * further check of that key is refused, right or wrong. A single gateway counts in memory (a fixed
 * window per key; nothing appended per login). With SCALE_OUT=on the failures are events on the
 * key's stream and the window slides (LoggedPasswordAttempts), so the limit holds summed over the
 * processes instead of once per process.
 */
@Injectable()
export class PasswordAttempts {
  private readonly failures: FixedWindows;
  private readonly logged: LoggedPasswordAttempts | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig, streams: StreamCommands) {
    this.failures = new FixedWindows(config.passwordAttempts);
    this.logged =
      config.scaleOut && config.passwordAttempts.max > 0
        ? new LoggedPasswordAttempts(config.passwordAttempts, config.sessionSecret, streams)
        : null;
  }

  /** Throws 429 when the key has used up its failures (this process's count). */
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
    if (this.logged) return this.logged.check(key, verify);
    this.assertAllowed(key);
    this.recordFailure(key);
    const ok = await verify();
    if (ok) this.recordSuccess(key);
    return ok;
  }
}
