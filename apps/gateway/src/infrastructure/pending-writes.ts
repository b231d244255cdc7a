import { Injectable } from '@nestjs/common';

/**
 * Writers that batch their appends (the usage appender): a shutdown lets their last batch land
 * before the stores close, so a request answered during the drain is not left unbilled.
 */
@Injectable()
export class PendingWrites {
  private readonly writers = new Set<() => Promise<void>>();

  register(drain: () => Promise<void>): void {
    this.writers.add(drain);
  }

  /** Resolves once every writer's queued appends were attempted (failures are theirs to log). */
  async drain(): Promise<void> {
    await Promise.all([...this.writers].map((drain) => drain().catch(() => undefined)));
  }
}
