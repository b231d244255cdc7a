import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';

/** Values remembered at most; past it the soonest-expiring ones go first (they expire anyway). */
const MAX_REMEMBERED = 100_000;

/**
 * Single use on our side of states and authorization codes (the providers' own single use aside):
 * a value is accepted once until it expires. Kept in memory by hash, never in clear; a replay on
 * another gateway process still fails there because the state cookie was cleared and the provider
 * refuses a used code.
 */
@Injectable()
export class OAuthReplays {
  private readonly used = new Map<string, number>();

  /** True the first time `value` is seen (in `scope`) before `expiresAtMs`; false on a replay. */
  consume(scope: string, value: string, expiresAtMs: number, nowMs = Date.now()): boolean {
    this.prune(nowMs);
    const key = createHash('sha256').update(`${scope}\n${value}`).digest('base64url');
    const until = this.used.get(key);
    if (until !== undefined && until > nowMs) return false;
    this.used.delete(key);
    this.used.set(key, expiresAtMs);
    return true;
  }

  get size(): number {
    return this.used.size;
  }

  private prune(nowMs: number): void {
    for (const [key, until] of this.used) if (until <= nowMs) this.used.delete(key);
    while (this.used.size >= MAX_REMEMBERED) {
      const oldest = this.used.keys().next();
      if (oldest.done) break;
      this.used.delete(oldest.value);
    }
  }
}
