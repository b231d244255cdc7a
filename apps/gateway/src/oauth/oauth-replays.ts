import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { oauthMarkDecider } from '@tollgate/domain';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';

/**
 * Single use on our side of states and authorization codes (the providers' own single use aside):
 * a value is accepted once until it expires. The mark is an event on `oauthmark-<SHA-256 of scope
 * and value>` (the value is never stored), appended with the stream's expected revision, so
 * whichever process sees a value first accepts it, of two processes seeing it at once only one
 * does, and a restart forgets no mark. The mark is the only event a refused sign-in leaves.
 */
@Injectable()
export class OAuthReplays {
  constructor(private readonly streams: StreamCommands) {}

  /** True the first time `value` is seen (in `scope`) before `expiresAtMs`; false on a replay. */
  async consume(
    scope: string,
    value: string,
    expiresAtMs: number,
    meta: RequestMeta,
    nowMs = Date.now(),
  ): Promise<boolean> {
    const { events } = await this.streams.execute(
      OAuthReplays.streamOf(scope, value),
      oauthMarkDecider,
      { type: 'SpendOAuthValue', scope, expiresAt: expiresAtMs },
      meta,
      { now: new Date(nowMs) },
    );
    return events.length > 0;
  }

  static streamOf(scope: string, value: string): string {
    return `oauthmark-${createHash('sha256').update(`${scope}\n${value}`).digest('base64url')}`;
  }
}
