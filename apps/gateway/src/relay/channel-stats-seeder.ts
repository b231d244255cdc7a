import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { EventStore, Position, RecordedEvent } from '@tollgate/event-store';
import type { ProjectionHost } from '@tollgate/read-store';
import { EVENT_STORE, PROJECTION_HOST } from '../infrastructure/injection-tokens';
import {
  MAX_SEED_CALLS,
  SEED_EVENT_TYPES,
  SEED_WINDOW_MS,
  seedChannelStats,
} from './channel-stats-seed';
import { RECENT_CALLS_PORT, type RecentCallsPort } from './recent-calls-port';
import { RelayService } from './relay.service';

/**
 * The longest the seeding waits for the read models to catch up with the log (the start-up does
 * that, a rebuild may take long); past it routing keeps learning from live calls only.
 */
export const SEED_WAIT_MS = 60_000;

const WAIT_STEP_MS = 250;

/**
 * Adaptive routing's figures rebuilt at start-up (every process) from the last SEED_WINDOW_MS of
 * receipts and failures, so a restart does not send traffic back to a slow or failing channel
 * while it relearns. The usage streams are named by the process that wrote them and the store
 * reads `$all` only forwards: the log read model (one row per call, its id the event's `$all`
 * position) says where the recent calls begin, and the store gives them whole from there (a row
 * keeps use time in seconds only). It runs beside the boot, never holding it: the log read model
 * is readable once the start-up has caught the read models up.
 */
@Injectable()
export class ChannelStatsSeeder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ChannelStatsSeeder.name);
  /** Settles when the seeding is over (done, given up or failed): tests wait on it. */
  done: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly modules: ModuleRef,
    @Inject(PROJECTION_HOST) private readonly host: ProjectionHost,
    private readonly relay: RelayService,
  ) {}

  onApplicationBootstrap(): void {
    this.done = this.seed().catch((e: unknown) =>
      this.logger.warn(`channel figures not rebuilt (${String(e)}): routing starts empty`),
    );
  }

  /** A boot cut short stops the wait for the read models. */
  onApplicationShutdown(): void {
    this.stopped = true;
  }

  private async seed(): Promise<void> {
    const head = await this.store.headPosition();
    if (head === null) return;
    if (!(await this.caughtUpWith(head))) {
      if (this.stopped) return;
      this.logger.warn(`read models not caught up within ${SEED_WAIT_MS} ms: routing starts empty`);
      return;
    }
    const since = Date.now() - SEED_WINDOW_MS;
    const fed = seedChannelStats(this.relay.channelStats, await this.recentCalls(since), since);
    this.logger.log(`channel figures rebuilt from ${fed} recent attempts`);
  }

  /** Waits in short steps: a catch-up that starts at its checkpoint may announce no advance. */
  private async caughtUpWith(head: Position): Promise<boolean> {
    const deadline = Date.now() + SEED_WAIT_MS;
    while (!this.stopped && Date.now() < deadline)
      if (await this.host.waitFor(head, WAIT_STEP_MS)) return true;
    return false;
  }

  /** The last MAX_SEED_CALLS calls since `sinceMs`, in `$all` order. */
  async recentCalls(sinceMs: number): Promise<RecordedEvent[]> {
    const rows = this.modules.get<RecentCallsPort>(RECENT_CALLS_PORT, { strict: false });
    const fromPosition = await rows.startAfter(sinceMs, MAX_SEED_CALLS);
    const events = await this.store.readAll({
      fromPosition,
      maxCount: MAX_SEED_CALLS,
      filter: { eventTypes: SEED_EVENT_TYPES },
    });
    return events;
  }
}
