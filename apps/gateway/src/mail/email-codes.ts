import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { normalizeEmail } from '@tollgate/domain';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { ApiError } from '../shared/api-error';

/** `verify`: registration and email bind (both prove the mailbox); `reset`: password reset links. */
export type CodePurpose = 'verify' | 'reset';

/** A new mail for the same address and purpose waits 30 seconds. */
export const RESEND_INTERVAL_MS = 30_000;
/** Wrong guesses before a code is void (a 6-digit code then holds against guessing). */
export const MAX_FAILURES = 5;
/** Pending codes kept at most; beyond it the oldest are dropped (the rate limit keeps it far off). */
export const MAX_ENTRIES = 10_000;

interface Entry {
  readonly digest: Buffer;
  readonly sentAt: number;
  readonly expiresAt: number;
  failures: number;
}

/**
 * Codes and reset tokens in memory only: an HMAC under a key drawn at start-up, never the code, so
 * not even a heap dump gives them away, and a restart voids them all (ephemeral by design: they are
 * secrets, not history, so they stay out of the event log).
 */
@Injectable()
export class EmailCodes {
  private readonly entries = new Map<string, Entry>();
  private readonly key = randomBytes(32);
  private readonly ttlMs: number;
  /** Replaceable in tests. */
  now: () => number = Date.now;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'mail'>) {
    this.ttlMs = config.mail.codeTtlMs;
  }

  get validMinutes(): number {
    return Math.max(1, Math.round(this.ttlMs / 60_000));
  }

  /** Six digits for people to type. */
  static newCode(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }

  /** 192 random bits for a link. */
  static newToken(): string {
    return randomBytes(24).toString('base64url');
  }

  /**
   * Records `secret` as the one valid for this address and purpose (replacing an older one), or
   * refuses while the last one is younger than 30 seconds.
   */
  issue(purpose: CodePurpose, email: string, secret: string): void {
    const key = this.keyOf(purpose, email);
    const now = this.now();
    const last = this.entries.get(key);
    if (last && now - last.sentAt < RESEND_INTERVAL_MS)
      throw new ApiError('mail.resend_too_soon', {
        seconds: Math.ceil((RESEND_INTERVAL_MS - (now - last.sentAt)) / 1000),
      });
    this.entries.delete(key);
    this.makeRoom(now);
    this.entries.set(key, {
      digest: this.digest(secret),
      sentAt: now,
      expiresAt: now + this.ttlMs,
      failures: 0,
    });
  }

  /** The mail did not leave: the code is void and the address may ask again at once. */
  withdraw(purpose: CodePurpose, email: string): void {
    this.entries.delete(this.keyOf(purpose, email));
  }

  /**
   * Whether `secret` is the live one. It stays valid (consume() ends it once used): a registration
   * refused for another reason (a taken name) does not cost the user their code. Each wrong guess
   * counts; the fifth voids the code.
   */
  check(purpose: CodePurpose, email: string, secret: string): boolean {
    const key = this.keyOf(purpose, email);
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (this.now() >= entry.expiresAt) {
      this.entries.delete(key);
      return false;
    }
    if (timingSafeEqual(entry.digest, this.digest(secret))) return true;
    entry.failures += 1;
    if (entry.failures >= MAX_FAILURES) this.entries.delete(key);
    return false;
  }

  /** Ends the code once it did its job (single use). */
  consume(purpose: CodePurpose, email: string): void {
    this.entries.delete(this.keyOf(purpose, email));
  }

  get size(): number {
    return this.entries.size;
  }

  private keyOf(purpose: CodePurpose, email: string): string {
    return `${purpose}:${normalizeEmail(email)}`;
  }

  private digest(secret: string): Buffer {
    return createHmac('sha256', this.key).update(secret).digest();
  }

  private makeRoom(now: number): void {
    if (this.entries.size < MAX_ENTRIES) return;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    // Map order is insertion order: the first keys are the oldest codes.
    for (const key of this.entries.keys()) {
      if (this.entries.size < MAX_ENTRIES) break;
      this.entries.delete(key);
    }
  }
}
