import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import {
  OPTION_CATALOGUE,
  type BillingEvent,
  type NoticeRaised,
  type OptionChanged,
  type RequestRelayed,
  type TaskRefunded,
  type UserNotificationSettingsChanged,
} from '@tollgate/domain';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';

/** A balance that went below its threshold while armed: the warning still to be recorded. */
export interface Crossing {
  readonly userId: number;
  /** The event whose balance change crossed: the notice id derives from it. */
  readonly causeEventId: string;
  readonly balance: number;
  readonly threshold: number;
}

interface Watch {
  balance: number;
  /** The user's own threshold (null: QuotaRemindThreshold). */
  own: number | null;
  /** Armed once the balance is at or above the threshold; a warning disarms it. */
  armed: boolean;
  /** Crossed while armed, no NoticeRaised seen yet. */
  pending: Crossing | null;
}

const DEFAULT_THRESHOLD = Number(OPTION_CATALOGUE['QuotaRemindThreshold']?.defaultValue ?? 0);

/**
 * Low-balance warnings, derived from the log alone so a restart neither re-sends nor forgets one.
 * Per user it folds the settled balance (credits − charges, the same events as the balance book:
 * billing credits, usage receipts, task refunds) and the threshold (the user's own, else the
 * QuotaRemindThreshold option, as the log had it then). The balance at or above the threshold arms
 * the user; falling below while armed is a crossing (pending) and disarms; the `NoticeRaised`
 * quota warning that records it clears the pending crossing. After a replay, the crossings still
 * pending are the ones whose warning was never recorded (a crash in between): recording them again
 * is safe, the notice id derives from the crossing's event.
 *
 * `apply` only folds; `onCrossing` (set by the notices module) queues the recording.
 */
@Injectable()
export class LowBalanceWatcher implements HotCache {
  readonly name = 'low-balance-watcher';
  readonly eventTypes = [
    'QuotaGranted',
    'QuotaAdjusted',
    'AffQuotaTransferred',
    'RequestRelayed',
    'TaskRefunded',
    'UserNotificationSettingsChanged',
    'OptionChanged',
    'NoticeRaised',
  ];

  private readonly watches = new Map<number, Watch>();
  private optionThreshold = DEFAULT_THRESHOLD;
  onCrossing: ((crossing: Crossing) => void) | undefined;

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      switch (event.type) {
        case 'RequestRelayed': {
          const d = (event as unknown as RequestRelayed).data;
          this.change(d.userId, -d.quota, event.id);
          break;
        }
        case 'TaskRefunded': {
          const d = (event as unknown as TaskRefunded).data;
          this.change(d.userId, d.quota, event.id);
          break;
        }
        case 'QuotaGranted':
        case 'QuotaAdjusted':
        case 'AffQuotaTransferred': {
          const e = { type: event.type, data: event.data } as BillingEvent;
          const amount =
            e.type === 'QuotaAdjusted'
              ? e.data.delta
              : e.type === 'InviterRewarded'
                ? 0
                : (e.data as { amount: number }).amount;
          this.change(e.data.userId, amount, event.id);
          break;
        }
        case 'UserNotificationSettingsChanged': {
          const d = (event as unknown as UserNotificationSettingsChanged).data;
          this.watch(d.userId).own = d.quotaWarningThreshold;
          this.judge(d.userId, event.id);
          break;
        }
        case 'OptionChanged': {
          const d = (event as unknown as OptionChanged).data;
          if (d.key !== 'QuotaRemindThreshold') break;
          const value = Number(d.value);
          this.optionThreshold = Number.isFinite(value) ? value : DEFAULT_THRESHOLD;
          break;
        }
        case 'NoticeRaised': {
          const d = (event as unknown as NoticeRaised).data;
          if (d.kind !== 'quota_warning') break;
          const watch = this.watch(d.userId);
          watch.pending = null;
          watch.armed = false;
          break;
        }
      }
    }
  }

  threshold(userId: number): number {
    return this.watches.get(userId)?.own ?? this.optionThreshold;
  }

  balance(userId: number): number {
    return this.watches.get(userId)?.balance ?? 0;
  }

  /** Crossings whose warning is not recorded yet. */
  pending(): Crossing[] {
    return [...this.watches.values()].flatMap((w) => (w.pending ? [w.pending] : []));
  }

  private change(userId: number, delta: number, eventId: string): void {
    if (delta === 0) return;
    this.watch(userId).balance += delta;
    this.judge(userId, eventId);
  }

  private judge(userId: number, eventId: string): void {
    const watch = this.watch(userId);
    const threshold = this.threshold(userId);
    if (threshold <= 0) {
      watch.armed = false;
      return;
    }
    if (watch.balance >= threshold) {
      watch.armed = true;
      // Back above before its warning was recorded (a replay, or a crash before the append): that
      // crossing is over, nothing is owed.
      watch.pending = null;
      return;
    }
    if (!watch.armed) return;
    watch.armed = false;
    watch.pending = { userId, causeEventId: eventId, balance: watch.balance, threshold };
    this.onCrossing?.(watch.pending);
  }

  private watch(userId: number): Watch {
    let watch = this.watches.get(userId);
    if (!watch) {
      watch = { balance: 0, own: null, armed: false, pending: null };
      this.watches.set(userId, watch);
    }
    return watch;
  }
}
