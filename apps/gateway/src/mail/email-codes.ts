import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  emailCodeDecider,
  emailCodeVerdict,
  normalizeEmail,
  type EmailCodePurpose,
} from '@tollgate/domain';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';

export type CodePurpose = EmailCodePurpose;
export { MAX_CODE_FAILURES as MAX_FAILURES, RESEND_INTERVAL_MS } from '@tollgate/domain';

/** Separates the keys derived from SESSION_SECRET for the stream names and the code hashes. */
const ADDRESS_KEY_LABEL = 'tollgate mail-code address';
const CODE_KEY_LABEL = 'tollgate mail-code secret';

/**
 * Mailed codes and reset-link tokens, kept in the log (`mailcode-<purpose>-<address hash>`) so any
 * process verifies what another issued, once, and a restart voids nothing. The events hold a keyed
 * HMAC of the code (the key derives from SESSION_SECRET, which every process shares), never the
 * code; the stream name holds a keyed hash of the address. Each call reads the stream's tail from
 * the store, so a code issued by one process is seen by the next request at another.
 */
@Injectable()
export class EmailCodes {
  private readonly ttlMs: number;
  private readonly addressKey: Buffer;
  private readonly codeKey: Buffer;
  /** Replaceable in tests. */
  now: () => number = Date.now;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'mail' | 'sessionSecret'>,
    private readonly streams: StreamCommands,
  ) {
    this.ttlMs = config.mail.codeTtlMs;
    this.addressKey = derivedKey(config.sessionSecret, ADDRESS_KEY_LABEL);
    this.codeKey = derivedKey(config.sessionSecret, CODE_KEY_LABEL);
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
   * refuses (`mail.resend_too_soon`) while the last one is younger than 30 seconds.
   */
  async issue(
    purpose: CodePurpose,
    email: string,
    secret: string,
    meta: RequestMeta,
  ): Promise<void> {
    await this.run(purpose, email, meta, {
      type: 'IssueEmailCode',
      purpose,
      codeHash: this.codeHash(purpose, email, secret),
      ttlMs: this.ttlMs,
    });
  }

  /** The mail did not leave: the code is void and the address may ask again at once. */
  async withdraw(
    purpose: CodePurpose,
    email: string,
    secret: string,
    meta: RequestMeta,
  ): Promise<void> {
    await this.run(purpose, email, meta, {
      type: 'WithdrawEmailCode',
      codeHash: this.codeHash(purpose, email, secret),
    });
  }

  /**
   * Whether `secret` is the live one. It stays valid (consume() ends it once used): a registration
   * refused for another reason (a taken name) does not cost the user their code. Each wrong guess
   * counts; the fifth voids the code.
   */
  async check(
    purpose: CodePurpose,
    email: string,
    secret: string,
    meta: RequestMeta,
  ): Promise<boolean> {
    const codeHash = this.codeHash(purpose, email, secret);
    // One instant for the decision and the verdict, so they never disagree at the expiry.
    const now = this.now();
    const { state } = await this.run(
      purpose,
      email,
      meta,
      { type: 'CheckEmailCode', codeHash },
      now,
    );
    return emailCodeVerdict(state, codeHash, now) === 'valid';
  }

  /**
   * Spends `secret` if it is the live one: true for exactly one caller across every process (a
   * concurrent second one loses the expected revision, folds the consumption and gets false).
   */
  async consume(
    purpose: CodePurpose,
    email: string,
    secret: string,
    meta: RequestMeta,
  ): Promise<boolean> {
    const codeHash = this.codeHash(purpose, email, secret);
    const { events } = await this.run(purpose, email, meta, { type: 'ConsumeEmailCode', codeHash });
    return events.some((event) => event.type === 'EmailCodeConsumed');
  }

  /** The stream of one address and purpose (the address lower-cased, then hashed under a key). */
  streamOf(purpose: CodePurpose, email: string): string {
    const address = createHmac('sha256', this.addressKey)
      .update(normalizeEmail(email))
      .digest('base64url');
    return `mailcode-${purpose}-${address}`;
  }

  private run(
    purpose: CodePurpose,
    email: string,
    meta: RequestMeta,
    command: Parameters<typeof emailCodeDecider.decide>[0],
    now = this.now(),
  ) {
    return this.streams.execute(this.streamOf(purpose, email), emailCodeDecider, command, meta, {
      now: new Date(now),
    });
  }

  private codeHash(purpose: CodePurpose, email: string, secret: string): string {
    return createHmac('sha256', this.codeKey)
      .update(`${purpose}\n${normalizeEmail(email)}\n${secret}`)
      .digest('base64url');
  }
}

function derivedKey(secret: string, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest();
}
