import { Injectable } from '@nestjs/common';
import {
  ADMITTED,
  type LimitVerdict,
  type TokenLimits,
  type UserRequestLimits,
} from '@tollgate/relay';
import { windowStartOf } from '@tollgate/domain';
import { ConcurrencySlots } from './concurrency-slots';
import { RateAllowances } from './rate-allowances';

const MINUTE_MS = 60_000;

type Refusal = Extract<LimitVerdict, { ok: false }>;
type Verdict = LimitVerdict | Promise<LimitVerdict>;

/**
 * The per-token rpm / tpm and the per-user ModelRequestRateLimit* counts held across scale-out
 * processes (RateAllowances), in fixed windows: the token's minute, the user's
 * ModelRequestRateLimitDurationMinutes; the token's concurrency by slots held per process
 * (ConcurrencySlots). Checked after the in-memory limiters, which still hold each process to its
 * sliding window and its own concurrency. Inactive alone.
 */
@Injectable()
export class ScaleOutLimits {
  constructor(
    private readonly allowances: RateAllowances,
    private readonly slots: ConcurrencySlots,
  ) {}

  get active(): boolean {
    return this.allowances.active;
  }

  /**
   * A token's tpm (some allowance still held), concurrency (a slot, given back by the verdict's
   * `release`) and rpm (one request taken now).
   */
  admitToken(tokenId: number, limits: TokenLimits, now = Date.now()): Verdict {
    const tpm =
      limits.tpm > 0 ? this.allowances.holds(tpmKey(tokenId), limits.tpm, MINUTE_MS, now) : true;
    return then(tpm, (held) => {
      if (!held) return refusal('tpm', limits.tpm, MINUTE_MS, now);
      if (limits.concurrency <= 0) return this.admitRpm(tokenId, limits, now, ADMITTED);
      return then(this.slots.acquire(tokenId, limits.concurrency), (slot) => {
        if (!slot)
          return { ok: false, limit: 'concurrency', retryAfter: 1, max: limits.concurrency };
        const admitted: LimitVerdict = { ok: true, release: () => this.slots.release(tokenId) };
        return this.admitRpm(tokenId, limits, now, admitted);
      });
    });
  }

  /** The rpm after the other checks: a refusal gives back what `admitted` holds. */
  private admitRpm(
    tokenId: number,
    limits: TokenLimits,
    now: number,
    admitted: LimitVerdict,
  ): Verdict {
    if (limits.rpm <= 0) return admitted;
    const taken = this.allowances.take(rpmKey(tokenId), limits.rpm, MINUTE_MS, 1, now);
    return then(taken, (ok) => {
      if (ok) return admitted;
      if (admitted.ok) admitted.release();
      return refusal('rpm', limits.rpm, MINUTE_MS, now);
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
  tokenUsed(tokenId: number, limits: TokenLimits, tokens: number, now = Date.now()): void {
    if (limits.tpm > 0) this.allowances.use(tpmKey(tokenId), MINUTE_MS, tokens, now);
  }

  /** A successful request, counted against the user's ModelRequestRateLimitSuccessCount. */
  userSucceeded(userId: number, limits: UserRequestLimits, now = Date.now()): void {
    if (!limits.enabled || limits.durationMinutes <= 0 || limits.successCount <= 0) return;
    this.allowances.use(successesKey(userId), limits.durationMinutes * MINUTE_MS, 1, now);
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
