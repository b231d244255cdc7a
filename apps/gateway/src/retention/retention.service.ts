import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { EventStore } from '@tollgate/event-store';
import { join } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { SchedulerGate } from '../infrastructure/scheduler-gate';
import { OptionsCache } from '../options/options.cache';
import { ARCHIVE_FOLDER } from './archive-segment';
import { HOUR_MS, compactUsage, type CompactedStream } from './compaction-pass';

/** The first pass waits this long after start-up (the caches and projections catch up first). */
const STARTUP_DELAY_MS = 60_000;
const PASS_INTERVAL_MS = HOUR_MS;
export const RETENTION_OPTION = 'ReceiptRetentionDays';

/** What the passes of this process compacted (the metrics read it). */
export interface RetentionStats {
  readonly streams: number;
  readonly receipts: number;
}

/**
 * Runs the compaction pass (docs/retention.md) on the process that runs the scheduled jobs: once
 * shortly after start-up, then every hour, while `ReceiptRetentionDays` is above 0.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<CompactedStream[]> | undefined;
  private stopped = false;
  private counted = { streams: 0, receipts: 0 };
  /** The clock of the passes (tests set their own). */
  now: () => number = Date.now;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly options: OptionsCache,
    private readonly gate: SchedulerGate,
  ) {}

  get stats(): RetentionStats {
    return { ...this.counted };
  }

  onApplicationBootstrap(): void {
    this.gate.whenElected(
      () => this.schedule(STARTUP_DELAY_MS),
      () => clearTimeout(this.timer),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass?.catch(() => undefined);
  }

  /** One pass now (or the one running). */
  runOnce(): Promise<CompactedStream[]> {
    this.pass ??= compactUsage({
      store: this.store,
      archiveFolder: join(this.config.dataDir, ARCHIVE_FOLDER),
      retentionDays: this.options.number(RETENTION_OPTION),
      now: this.now,
      mayContinue: () => !this.stopped && this.gate.mayRun(),
    })
      .then((compacted) => {
        this.count(compacted);
        return compacted;
      })
      .finally(() => {
        this.pass = undefined;
      });
    return this.pass;
  }

  private count(compacted: readonly CompactedStream[]): void {
    for (const stream of compacted) {
      this.counted.streams += 1;
      this.counted.receipts += stream.receipts;
    }
    if (compacted.length > 0)
      this.logger.log(
        `compacted ${compacted.length} usage stream(s), ${compacted.reduce((n, s) => n + s.receipts, 0)} receipts`,
      );
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    if (this.stopped || !this.gate.mayRun()) return;
    this.timer = setTimeout(() => {
      if (!this.gate.mayRun()) return;
      void this.runOnce()
        .catch((error: unknown) => this.logger.error(`compaction pass: ${String(error)}`))
        .finally(() => this.schedule(PASS_INTERVAL_MS));
    }, delay);
    this.timer.unref();
  }
}
