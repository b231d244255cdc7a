import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Position } from '@tollgate/event-store';
import type { ProjectionHost } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { CacheFeed } from './hot-caches/cache-feed';
import { APP_CONFIG } from '../config/config.tokens';
import { PROJECTION_HOST } from './injection-tokens';

/**
 * Commands answer only once the read models and the hot caches show their change, so the next GET
 * (or relay call) sees it.
 */
@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger(ReadYourWrites.name);

  constructor(
    @Inject(PROJECTION_HOST) private readonly host: ProjectionHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly caches: CacheFeed,
  ) {}

  async waitFor(position: Position | null | undefined): Promise<void> {
    if (!position) return;
    const timeout = this.config.waitForProjectionsMs;
    const [projected, cached] = await Promise.all([
      this.host.waitFor(position, timeout),
      this.caches.waitFor(position, timeout),
    ]);
    const reached = projected && cached;
    if (!reached)
      this.logger.warn(
        `Projections did not reach ${position.commit} within ${this.config.waitForProjectionsMs} ms`,
      );
  }
}
