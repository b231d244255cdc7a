import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Position } from '@tollgate/event-store';
import type { ProjectionHost } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, PROJECTION_HOST } from './injection-tokens';

/** Commands answer only once the read models show their change, so the next GET sees it. */
@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger(ReadYourWrites.name);

  constructor(
    @Inject(PROJECTION_HOST) private readonly host: ProjectionHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async waitFor(position: Position | null | undefined): Promise<void> {
    if (!position) return;
    const reached = await this.host.waitFor(position, this.config.waitForProjectionsMs);
    if (!reached)
      this.logger.warn(
        `Projections did not reach ${position.commit} within ${this.config.waitForProjectionsMs} ms`,
      );
  }
}
