import { createHmac, randomUUID } from 'node:crypto';
import { DomainError, passwordAttemptDecider, SYSTEM_ACTOR } from '@tollgate/domain';
import { WrongExpectedRevisionError } from '@tollgate/event-store';
import type { StreamCommands } from '../infrastructure/stream-commands';
import { ApiError } from '../shared/api-error';
import type { RequestMeta } from '../shared/request-meta';
import type { WindowLimit } from './fixed-windows';

/** Separates this key, derived from SESSION_SECRET, from the others derived from it. */
const STREAM_KEY_LABEL = 'tollgate password-attempts';

/**
 * Failed password checks counted in the log (`pwattempts-<keyed hash of the key>`), for gateways
 * sharing one: each check appends `PasswordAttemptFailed` with the stream's expected revision
 * before the hash runs, so the limit holds summed over every process, and a success appends
 * `PasswordAttemptsCleared`. The stream name is keyed under SESSION_SECRET because a login name
 * field sometimes receives a password typed in the wrong box.
 */
export class LoggedPasswordAttempts {
  private readonly streamKey: Buffer;

  constructor(
    private readonly limit: WindowLimit,
    sessionSecret: string,
    private readonly streams: StreamCommands,
  ) {
    this.streamKey = createHmac('sha256', sessionSecret).update(STREAM_KEY_LABEL).digest();
  }

  async check(key: string, verify: () => Promise<boolean>, now = new Date()): Promise<boolean> {
    const stream = this.streamOf(key);
    const meta = attemptMeta();
    try {
      await this.streams.execute(
        stream,
        passwordAttemptDecider,
        { type: 'StartPasswordAttempt', max: this.limit.max, windowMs: this.limit.windowMs },
        meta,
        { now },
      );
    } catch (error) {
      // Refused, or so contended that the retries ran out: either way no guess is let through.
      if (
        (error instanceof DomainError && error.code === 'common.too_many_requests') ||
        error instanceof WrongExpectedRevisionError
      )
        throw new ApiError('common.too_many_requests', {}, 429);
      throw error;
    }
    const ok = await verify();
    if (ok)
      await this.streams.execute(
        stream,
        passwordAttemptDecider,
        { type: 'ClearPasswordAttempts' },
        meta,
      );
    return ok;
  }

  streamOf(key: string): string {
    return `pwattempts-${createHmac('sha256', this.streamKey).update(key).digest('base64url')}`;
  }
}

/** Nobody is signed in yet: the system records the attempt (the event holds only its time). */
function attemptMeta(): RequestMeta {
  return { actor: SYSTEM_ACTOR, correlationId: randomUUID(), lang: 'zh-CN' };
}
