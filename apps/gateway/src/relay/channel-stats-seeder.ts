import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { LogType } from '@tollgate/contracts';
import type { EventStore, Position, RecordedEvent } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import { EVENT_STORE, READ_STORE } from '../infrastructure/injection-tokens';
import { logStore } from '../logs/log-store';
import {
  MAX_SEED_CALLS,
  SEED_EVENT_TYPES,
  SEED_WINDOW_MS,
  seedChannelStats,
} from './channel-stats-seed';
import { RelayService } from './relay.service';

/** The longest the boot waits for the figures; past it routing starts empty. */
export const SEED_TIMEOUT_MS = 3_000;

const CALL_ROWS = [LogType.Consume, LogType.Error];

/**
 * Adaptive routing's figures rebuilt at start-up (every process) from the last SEED_WINDOW_MS of
 * receipts and failures, so a restart does not send traffic back to a slow or failing channel
 * while it relearns. The usage streams are named by the process that wrote them and the store
 * reads `$all` only forwards: the log read model (one row per call, its id the event's `$all`
 * position) says where the recent calls begin, and the store gives them whole from there (a row
 * keeps use time in seconds only).
 */
@Injectable()
export class ChannelStatsSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger(ChannelStatsSeeder.name);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly relay: RelayService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const since = Date.now() - SEED_WINDOW_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), SEED_TIMEOUT_MS);
      timer.unref();
    });
    try {
      const events = await Promise.race([this.recentCalls(since), timedOut]);
      if (events === 'late') {
        this.logger.warn(
          `channel figures not rebuilt within ${SEED_TIMEOUT_MS} ms: routing starts empty`,
        );
        return;
      }
      const fed = seedChannelStats(this.relay.channelStats, events, since);
      this.logger.log(`channel figures rebuilt from ${fed} recent attempts`);
    } catch (e) {
      this.logger.warn(`channel figures not rebuilt (${String(e)}): routing starts empty`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The last MAX_SEED_CALLS calls since `sinceMs`, in `$all` order. */
  async recentCalls(sinceMs: number): Promise<RecordedEvent[]> {
    const fromPosition = await this.startAfter(sinceMs);
    const events = await this.store.readAll({
      fromPosition,
      maxCount: MAX_SEED_CALLS,
      filter: { eventTypes: SEED_EVENT_TYPES },
    });
    return events;
  }

  /**
   * The position of the newest row not to read: the one past the last MAX_SEED_CALLS call rows of
   * the window, else the newest row before it; 'start' when the log has none.
   */
  private async startAfter(sinceMs: number): Promise<Position | 'start'> {
    const logs = logStore(this.readStore);
    const since = Math.floor(sinceMs / 1000);
    const [past] = await logs.find(
      { type: { $in: CALL_ROWS }, created_at: { $gte: since } },
      { sort: { id: -1 }, skip: MAX_SEED_CALLS, limit: 1 },
    );
    const [before] = past
      ? [past]
      : await logs.find({ created_at: { $lt: since } }, { sort: { id: -1 }, limit: 1 });
    if (!before) return 'start';
    // A row's id is its event's `$all` commit position (the embedded store's prepare is the same).
    const at = BigInt(before.id);
    return { commit: at, prepare: at };
  }
}
