import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import type { ChannelAlertFact, ChannelStatusChanged, NoticeRaised } from '@tollgate/domain';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import { NoticeDelivery } from './notice-delivery';
import { NoticeDirectory } from './notice-directory';

export interface AlertPolicy {
  /** Alerts arriving within this window after the first are sent as one notice. */
  readonly coalesceMs: number;
  /** At most one alert per channel in this span. */
  readonly perChannelMs: number;
}
export const DEFAULT_ALERT_POLICY: AlertPolicy = { coalesceMs: 5_000, perChannelMs: 10 * 60_000 };

interface Pending {
  readonly eventId: string;
  readonly fact: ChannelAlertFact;
}

/**
 * Channel alerts: a reaction to the `ChannelStatusChanged` events the system appends (automatic
 * disable with its reason, automatic re-enable). Live events only (the replay at start-up is
 * history); the ones arriving within `coalesceMs` make one notice per recipient (root, and the
 * administrators who accept alerts), and a channel alerted in the last `perChannelMs` is left out
 * (that memory comes from the recorded notices, so it survives a restart). The model is the one the
 * disable names (the failing relay call or test), '' on an enable and on older events.
 */
@Injectable()
export class ChannelAlerts implements HotCache, OnApplicationShutdown {
  readonly name = 'channel-alerts';
  readonly eventTypes = ['ChannelStatusChanged', 'NoticeRaised'];
  private readonly logger = new Logger('ChannelAlerts');

  policy: AlertPolicy = DEFAULT_ALERT_POLICY;
  now: () => number = Date.now;
  /** Set once the cache feed caught up with the log (the notices module). */
  live = false;
  private readonly lastAlerted = new Map<number, number>();
  private buffer: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly directory: NoticeDirectory,
    private readonly delivery: NoticeDelivery,
  ) {}

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      switch (event.type) {
        case 'NoticeRaised': {
          const d = (event as unknown as NoticeRaised).data;
          if (d.kind !== 'channel_alert') break;
          for (const alert of (d.facts as { alerts?: ChannelAlertFact[] }).alerts ?? []) {
            const previous = this.lastAlerted.get(alert.channelId) ?? 0;
            this.lastAlerted.set(alert.channelId, Math.max(previous, d.raisedTime));
          }
          break;
        }
        case 'ChannelStatusChanged': {
          if (!this.live) break;
          const actor = event.metadata['actor'] as { kind?: string } | undefined;
          if (actor?.kind !== 'system') break;
          const d = (event as unknown as ChannelStatusChanged).data;
          this.add({
            eventId: event.id,
            fact: {
              channelId: d.channelId,
              channelName: this.directory.channelName(d.channelId),
              model: d.model ?? '',
              from: d.from,
              to: d.to,
              reason: d.reason,
              time: d.time,
            },
          });
          break;
        }
      }
    }
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
    this.buffer = [];
  }

  private add(pending: Pending): void {
    this.buffer.push(pending);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.policy.coalesceMs);
    this.timer.unref();
  }

  /** One notice per recipient for the buffered alerts, each channel at most once per span. */
  async flush(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    const now = this.now();
    const facts: ChannelAlertFact[] = [];
    const seen = new Set<number>();
    for (const { fact } of batch) {
      if (seen.has(fact.channelId)) continue;
      if (now - (this.lastAlerted.get(fact.channelId) ?? -Infinity) < this.policy.perChannelMs)
        continue;
      seen.add(fact.channelId);
      facts.push(fact);
    }
    if (facts.length === 0) return;
    // Remembered at once: the recorded notice confirms it when the feed delivers it.
    for (const fact of facts) this.lastAlerted.set(fact.channelId, now);
    const first = batch[0]!.eventId;
    for (const recipient of this.directory.alertRecipients()) {
      try {
        await this.delivery.raise({
          noticeId: `alert-${first}-${recipient.userId}`,
          userId: recipient.userId,
          kind: 'channel_alert',
          channel: recipient.notifyType,
          facts: { alerts: facts },
        });
      } catch (error) {
        this.logger.warn(`channel alert for user ${recipient.userId}: ${String(error)}`);
      }
    }
  }
}
