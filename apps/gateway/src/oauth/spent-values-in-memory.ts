import { createHash } from 'node:crypto';

/** Values remembered at most; past it the soonest-expiring ones go first (they expire anyway). */
const MAX_REMEMBERED = 100_000;

/**
 * A single gateway's spent OAuth values, by hash, in memory: nothing is appended for a sign-in
 * (or a refused one), as before scale-out existed.
 */
export class SpentValuesInMemory {
  private readonly used = new Map<string, number>();

  /** True the first time `value` is seen (in `scope`) before `expiresAtMs`; false on a replay. */
  spend(scope: string, value: string, expiresAtMs: number, nowMs: number): boolean {
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
