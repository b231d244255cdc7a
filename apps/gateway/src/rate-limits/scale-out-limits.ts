import { Injectable } from '@nestjs/common';
import {
  ADMITTED,
  type LimitVerdict,
  type TokenLimits,
  type UserRequestLimits,
} from '@tollgate/relay';
import { windowStartOf } from '@tollgate/domain';
import { RateAllowances } from './rate-allowances';

const MINUTE_MS = 60_000;

type Refusal = Extract<LimitVerdict, { ok: false }>;
type Verdict = LimitVerdict | Promise<LimitVerdict>;

/**
 * The per-token rpm / tpm and the per-user ModelRequestRateLimit* counts held across scale-out
 * processes (RateAllowances), in fixed windows: the token's minute, the user's
 * ModelRequestRateLimitDurationMinutes. Checked after the in-memory limiters (which still hold each
 * process to its sliding window and keep the concurrency per process). Inactive alone.
 */
@Injectable()
export class ScaleOutLimits {
  constructor(private readonly allowances: RateAllowances) {}

  get active(): boolean {
    return this.allowances.active;
  }

  /** A token's rpm (one request taken now) and tpm (some allowance still held). */
  admitToken(tokenId: number, limits: TokenLimits, now = Date.now()): Verdict {
    const tpm =
      limits.tpm > 0 ? this.allowances.holds(tpmKey(tokenId), limits.tpm, MINUTE_MS, now) : true;
    return then(tpm, (held) => {
      if (!held) return refusal('tpm', limits.tpm, MINUTE_MS, now);
      if (limits.rpm <= 0) return ADMITTED;
      const taken = this.allowances.take(rpmKey(tokenId), limits.rpm, MINUTE_MS, 1, now);
      return then(taken, (ok) => (ok ? ADMITTED : refusal('rpm', limits.rpm, MINUTE_MS, now)));
    });
  }

  /** ModelRequestRateLimitCount (one request taken now) and SuccessCount (some still held). */
  admitUser(userId: number, limits: UserRequestLimits, now = Date.now()): Verdict {
    if (!limits.enabled || limits.durationMinutes <= 0) return ADMITTED;
    const windowMs = limits.durationMinutes * MINUTE_MS;
    const successes =
      limits.successCount > 0
        ? this.allowances.holds(successesKey(userId), limits.successCount, windowMs, now)
        : true;
    return then(successes, (held) => {
      if (!held) return refusal('user_successes', limits.successCount, windowMs, now);
      if (limits.totalCount <= 0) return ADMITTED;
      const taken = this.allowances.take(requestsKey(userId), limits.totalCount, windowMs, 1, now);
      return then(taken, (ok) =>
        ok ? ADMITTED : refusal('user_requests', limits.totalCount, windowMs, now),
      );
    });
  }

  /** The tokens an answered request used, counted against the token's tpm allowance. */
  tokenUsed(tokenId: number, limits: TokenLimits, tokens: number): void {
    if (limits.tpm > 0) this.allowances.use(tpmKey(tokenId), MINUTE_MS, tokens);
  }

  /** A successful request, counted against the user's ModelRequestRateLimitSuccessCount. */
  userSucceeded(userId: number, limits: UserRequestLimits): void {
    if (!limits.enabled || limits.durationMinutes <= 0 || limits.successCount <= 0) return;
    this.allowances.use(successesKey(userId), limits.durationMinutes * MINUTE_MS, 1);
  }
}

const rpmKey = (tokenId: number) => `token-${tokenId}-rpm`;
const tpmKey = (tokenId: number) => `token-${tokenId}-tpm`;
const requestsKey = (userId: number) => `user-${userId}-requests`;
const successesKey = (userId: number) => `user-${userId}-successes`;

/** `next` on a value, or once a promised one arrives: no await when nothing is pending. */
function then<T>(value: T | Promise<T>, next: (value: T) => Verdict): Verdict {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** Refused until the fixed window ends (Retry-After in whole seconds, at least 1). */
function refusal(limit: Refusal['limit'], max: number, windowMs: number, now: number): Refusal {
  const endsAt = windowStartOf(now, windowMs) + windowMs;
  return { ok: false, limit, max, retryAfter: Math.max(1, Math.ceil((endsAt - now) / 1000)) };
}
