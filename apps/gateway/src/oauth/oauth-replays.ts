import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { oauthMarkDecider } from '@tollgate/domain';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';
import { SpentValuesInMemory } from './spent-values-in-memory';

/**
 * Single use on our side of states and authorization codes (the providers' own single use aside):
 * a value is accepted once until it expires. A single gateway remembers them in memory. With
 * SCALE_OUT=on the mark is an event on `oauthmark-<SHA-256 of scope and value>` (the value is never
 * stored), appended with the stream's expected revision, so whichever process sees a value first
 * accepts it and of two processes seeing it at once only one does.
 */
@Injectable()
export class OAuthReplays {
  private readonly memory: SpentValuesInMemory | null;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'scaleOut'>,
    private readonly streams: StreamCommands,
  ) {
    this.memory = config.scaleOut ? null : new SpentValuesInMemory();
  }

  /** True the first time `value` is seen (in `scope`) before `expiresAtMs`; false on a replay. */
  async consume(
    scope: string,
    value: string,
    expiresAtMs: number,
    meta: RequestMeta,
    nowMs = Date.now(),
  ): Promise<boolean> {
    if (this.memory) return this.memory.spend(scope, value, expiresAtMs, nowMs);
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
