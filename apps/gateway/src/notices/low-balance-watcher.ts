import { Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import {
  balanceDelta,
  BILLING_EVENT_TYPES,
  OPTION_CATALOGUE,
  TASK_REFUND_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  type BalanceEvent,
  type NoticeRaised,
  type OptionChanged,
  type UsageSummarized,
  type UserNotificationSettingsChanged,
} from '@tollgate/domain';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import { SummarySources, sumRows, USAGE_SUMMARY_EVENT_TYPES } from '../usage/summary-sources';

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

const BALANCE_EVENT_TYPES: readonly string[] = [
  ...BILLING_EVENT_TYPES,
  ...USAGE_EVENT_TYPES,
  ...TASK_REFUND_EVENT_TYPES,
];

const DEFAULT_THRESHOLD = Number(OPTION_CATALOGUE['QuotaRemindThreshold']?.defaultValue ?? 0);

/**
 * Low-balance warnings, derived from the log alone so a restart neither re-sends nor forgets one.
 * Per user it folds the settled balance (`balanceDelta`, the credit rule the balance book uses:
 * billing credits, usage receipts, task refunds) and the threshold (the user's own, else the
 * QuotaRemindThreshold option, as the log had it then; a change of either re-judges). The balance at or above the threshold arms
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
    ...BALANCE_EVENT_TYPES,
    ...USAGE_SUMMARY_EVENT_TYPES,
    'UserNotificationSettingsChanged',
    'OptionChanged',
    'NoticeRaised',
  ];

  private readonly watches = new Map<number, Watch>();
  private optionThreshold = DEFAULT_THRESHOLD;
  private readonly summarySources = new SummarySources();
  onCrossing: ((crossing: Crossing) => void) | undefined;

  apply(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (BALANCE_EVENT_TYPES.includes(event.type)) {
        const e = { type: event.type, data: event.data } as BalanceEvent;
        if (e.type === 'RequestRelayed') this.summarySources.receipt(event.streamId);
        this.change(e.data.userId, balanceDelta(e), event.id);
        continue;
      }
      switch (event.type) {
        case 'UsageSummarized': {
          const rows = this.summarySources.rows((event as unknown as UsageSummarized).data);
          for (const [userId, sum] of sumRows(rows, (row) => row.userId))
            this.catchUp(userId, -sum.quota);
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
          // Like a user's own threshold change: everyone following the option is judged anew.
          for (const [userId, watch] of this.watches)
            if (watch.own === null) this.judge(userId, event.id);
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

  /**
   * A summary's charges (removed receipts of an hour long past, replayed after their warnings
   * were decided): the balance follows, and the watch is armed as the balance says, but no
   * crossing is raised — the receipts' own crossing, if any, was recorded then (NoticeRaised).
   */
  private catchUp(userId: number, delta: number): void {
    const watch = this.watch(userId);
    watch.balance += delta;
    const threshold = this.threshold(userId);
    watch.armed = threshold > 0 && watch.balance >= threshold;
    if (watch.armed) watch.pending = null;
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
