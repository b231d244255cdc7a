import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { SchedulerGate } from '../infrastructure/scheduler-gate';
import { ChannelTasks, systemMeta } from './channel-tasks';

/**
 * CHANNEL_TEST_FREQUENCY (one-api's and new-api's variable, minutes, off by default): every period
 * the system tests every channel not disabled by hand, so results are recorded and the monitoring
 * options disable failing channels and bring back the ones it disabled (channel-test-verdict.ts).
 *
 * The next period starts when a run ends (a run meeting a click on "test all" joins it), so runs
 * never overlap however slow the providers are. The timer does not keep the process alive and is
 * cleared on shutdown; ChannelTasks stops a run that is going.
 */
@Injectable()
export class ChannelTestSchedule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ChannelTestSchedule.name);
  private readonly periodMs: number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tasks: ChannelTasks,
    private readonly gate: SchedulerGate,
  ) {
    this.periodMs = config.channelTestFrequencyMs;
  }

  onApplicationBootstrap(): void {
    if (this.periodMs <= 0) return;
    // In scale-out only the elected process runs the schedule (from when it wins the election).
    this.gate.whenElected(
      () => {
        this.logger.log(`testing every channel every ${this.periodMs / 60_000} min`);
        this.scheduleNext();
      },
      () => clearTimeout(this.timer),
    );
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private scheduleNext(): void {
    // Not elected any more: the next win starts the schedule again (one timer: the old one goes).
    clearTimeout(this.timer);
    if (this.stopped || !this.gate.mayRun()) return;
    this.timer = setTimeout(() => void this.run(), this.periodMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    if (!this.gate.mayRun()) return;
    try {
      await this.tasks.testAll(systemMeta());
    } catch (error) {
      this.logger.error(`scheduled channel test failed: ${String(error)}`);
    } finally {
      this.scheduleNext();
    }
  }
}
