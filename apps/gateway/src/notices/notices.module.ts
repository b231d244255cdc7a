import {
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { EventStore } from '@tollgate/event-store';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { SchedulerGate } from '../infrastructure/scheduler-gate';
import { MailCoreModule } from '../mail/mail-core.module';
import { ChannelAlerts } from './channel-alerts';
import { LowBalanceWatcher, type Crossing } from './low-balance-watcher';
import { NoticeDelivery } from './notice-delivery';
import { NoticeDirectory } from './notice-directory';
import { NoticesController } from './notices.controller';
import { SaveNotificationSettingsHandler } from './save-notification-settings.handler';

const LIVE_POLL_MS = 50;

/**
 * Notices (docs/notices.md): low-balance warnings, channel alerts, their delivery by webhook or
 * mail. Three hot caches follow the log; nothing is raised until they have replayed it (the
 * replay is history), then the crossings left pending and the undelivered notices are taken up.
 * In scale-out only the process elected to run the scheduled jobs raises and delivers them (one
 * webhook or mail per notice, not one per process); another takes over when it dies.
 */
@Module({
  imports: [MailCoreModule],
  controllers: [NoticesController],
  providers: [
    NoticeDirectory,
    LowBalanceWatcher,
    ChannelAlerts,
    NoticeDelivery,
    SaveNotificationSettingsHandler,
  ],
})
export class NoticesModule implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Notices');
  private live = false;
  private stopped = false;
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly feed: CacheFeed,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly directory: NoticeDirectory,
    private readonly watcher: LowBalanceWatcher,
    private readonly alerts: ChannelAlerts,
    private readonly delivery: NoticeDelivery,
    private readonly gate: SchedulerGate,
  ) {}

  onModuleInit(): void {
    // The directory first: within a batch the others read the recipients it folded.
    this.feed.register(this.directory);
    this.feed.register(this.watcher);
    this.feed.register(this.alerts);
    this.watcher.onCrossing = (crossing) => {
      if (this.live) setImmediate(() => void this.warn(crossing));
    };
  }

  onApplicationBootstrap(): void {
    // Deliveries wait for the scheduler role; a process that loses it stops raising and sending.
    this.delivery.mayAttempt = () => this.gate.mayRun();
    this.gate.whenElected(
      () => void this.goLive(),
      () => {
        this.live = false;
        this.alerts.live = false;
        this.delivery.pause();
      },
    );
  }

  onApplicationShutdown(): void {
    this.stopped = true;
  }

  /** Once the feed has replayed what the log held at start-up. */
  private async goLive(): Promise<void> {
    const head = await this.store.headPosition();
    while (!this.stopped && head && head.commit > 0n && !this.feed.hasReached(head))
      await new Promise((resolve) => setTimeout(resolve, LIVE_POLL_MS).unref());
    if (this.stopped) return;
    this.live = true;
    this.alerts.live = true;
    for (const crossing of this.watcher.pending()) void this.warn(crossing);
    this.delivery.resume();
  }

  /** Records the warning of one crossing (once: the notice id derives from its event). */
  private async warn(crossing: Crossing): Promise<void> {
    const noticeId = `quota-${crossing.userId}-${crossing.causeEventId}`;
    if (this.inFlight.has(noticeId) || this.stopped) return;
    const recipient = this.directory.recipient(crossing.userId);
    if (!recipient || recipient.deleted) return;
    this.inFlight.add(noticeId);
    try {
      await this.delivery.raise({
        noticeId,
        userId: crossing.userId,
        kind: 'quota_warning',
        channel: recipient.notifyType,
        facts: { balance: crossing.balance, threshold: crossing.threshold },
      });
    } catch (error) {
      this.logger.warn(`low-balance warning of user ${crossing.userId}: ${String(error)}`);
    } finally {
      this.inFlight.delete(noticeId);
    }
  }
}
