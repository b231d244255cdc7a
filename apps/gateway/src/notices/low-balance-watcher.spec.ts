import type { RecordedEvent } from '@tollgate/event-store';
import { usageSummaryEvents, usageSummaryStreamId } from '@tollgate/domain';
import { recordedEvent } from '@tollgate/testing';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { LowBalanceWatcher, type Crossing } from './low-balance-watcher';

const USER = 7;
const granted = (amount: number) =>
  recordedEvent('QuotaGranted', { userId: USER, amount, reason: 'topup' });
const adjusted = (delta: number) =>
  recordedEvent('QuotaAdjusted', { userId: USER, from: 0, to: 0, delta, note: '' });
const used = (quota: number) =>
  recordedEvent('RequestRelayed', {
    requestId: `r${Math.random()}`,
    userId: USER,
    tokenId: 1,
    quota,
  });
const refunded = (quota: number) =>
  recordedEvent('TaskRefunded', { taskId: 't', userId: USER, tokenId: 1, quota });
const threshold = (quotaWarningThreshold: number | null) =>
  recordedEvent('UserNotificationSettingsChanged', {
    userId: USER,
    notifyType: 'email',
    quotaWarningThreshold,
    webhookUrl: '',
    sealedWebhookSecret: null,
    notificationEmail: '',
    acceptAdminAlerts: false,
  });
const warned = (crossing: Crossing) =>
  recordedEvent('NoticeRaised', {
    noticeId: `quota-${USER}-${crossing.causeEventId}`,
    userId: USER,
    kind: 'quota_warning',
    channel: 'email',
    facts: { balance: crossing.balance, threshold: crossing.threshold },
    raisedTime: 0,
  });

function watcher() {
  const w = new LowBalanceWatcher();
  const crossings: Crossing[] = [];
  w.onCrossing = (c) => crossings.push(c);
  return { w, crossings };
}

describe('LowBalanceWatcher', () => {
  it('reports one crossing below the threshold, from the event that crossed', () => {
    const { w, crossings } = watcher();
    const crossing = used(600);
    w.apply([threshold(500), granted(1000), used(100), crossing, used(100), used(50)]);
    expect(crossings).toEqual([
      { userId: USER, causeEventId: crossing.id, balance: 300, threshold: 500 },
    ]);
    expect(w.pending()).toHaveLength(1);
  });

  it('owes nothing for a crossing the balance recovered from before its warning was recorded', () => {
    const { w } = watcher();
    // A replay of a crash window: crossed, never warned, then topped up.
    w.apply([threshold(500), granted(1000), used(600), granted(400)]);
    expect(w.pending()).toEqual([]);
  });

  it('stays quiet below the threshold until the balance went back to it (re-armed)', () => {
    const { w, crossings } = watcher();
    w.apply([threshold(500), granted(1000), used(600)]);
    w.apply([warned(crossings[0]!)]);
    expect(w.pending()).toEqual([]);
    w.apply([used(100), adjusted(50), used(10)]);
    expect(crossings).toHaveLength(1);
    w.apply([adjusted(1000), used(1200)]);
    expect(crossings).toHaveLength(2);
    expect(crossings[1]!.balance).toBe(1000 - 600 - 100 + 50 - 10 + 1000 - 1200);
  });

  it('a refund counts as a credit; a new user below the threshold is not warned before it had more', () => {
    const { w, crossings } = watcher();
    w.apply([threshold(500), granted(100), used(50)]);
    expect(crossings).toEqual([]);
    w.apply([refunded(450)]);
    expect(w.balance(USER)).toBe(500);
    w.apply([used(1)]);
    expect(crossings).toHaveLength(1);
  });

  it('follows QuotaRemindThreshold when the user set none; 0 turns warnings off', () => {
    const { w, crossings } = watcher();
    w.apply([
      recordedEvent('OptionChanged', {
        key: 'QuotaRemindThreshold',
        value: '200',
        previous: '1000',
      }),
      granted(300),
      used(150),
    ]);
    expect(crossings).toHaveLength(1);
    expect(crossings[0]!.threshold).toBe(200);
    w.apply([threshold(0), granted(1000), used(1300)]);
    expect(crossings).toHaveLength(1);
  });

  it('a QuotaRemindThreshold change re-judges the users following it (not those with their own)', () => {
    const { w, crossings } = watcher();
    const option = (value: string) =>
      recordedEvent('OptionChanged', { key: 'QuotaRemindThreshold', value, previous: '' });
    const own = recordedEvent('UserNotificationSettingsChanged', {
      userId: 8,
      notifyType: 'email',
      quotaWarningThreshold: 100,
      webhookUrl: '',
      sealedWebhookSecret: null,
      notificationEmail: '',
      acceptAdminAlerts: false,
    });
    w.apply([
      option('200'),
      own,
      granted(300),
      recordedEvent('QuotaGranted', { userId: 8, amount: 300, reason: 'topup' }),
    ]);
    expect(crossings).toEqual([]);
    const raised = option('1000');
    w.apply([raised]);
    expect(crossings).toEqual([
      { userId: USER, causeEventId: raised.id, balance: 300, threshold: 1000 },
    ]);
  });

  it('an invitation reward is not balance', () => {
    const { w } = watcher();
    w.apply([granted(100), recordedEvent('InviterRewarded', { userId: USER, amount: 50 })]);
    expect(w.balance(USER)).toBe(100);
  });

  it('after a restart the replay re-sends nothing recorded, and finds a crossing whose warning was lost', () => {
    const first = watcher();
    const log: RecordedEvent[] = [threshold(500), granted(1000), used(600)];
    first.w.apply(log);
    log.push(warned(first.crossings[0]!), used(10));
    // A second crossing whose notice never made it into the log (a crash in between).
    const lost = [adjusted(1000), used(1100)];
    log.push(...lost);

    const replayed = new LowBalanceWatcher();
    replayed.apply(log);
    expect(replayed.pending()).toEqual([
      { userId: USER, causeEventId: lost[1]!.id, balance: 290, threshold: 500 },
    ]);
    // Replaying again yields the same crossing (same id: recording it twice is refused).
    const again = new LowBalanceWatcher();
    again.apply(log);
    expect(again.pending()).toEqual(replayed.pending());
  });

  it('a summary of removed receipts: the same balance, counted once, and no second warning', () => {
    const source = 'usage-p1-2026011508';
    const receipts = [300, 300].map((quota) => usageReceipt({ userId: USER, quota }));
    const summary = usageSummaryEvents(source, Date.UTC(2026, 0, 15, 8), receipts).map((e) =>
      recordedEvent(e.type, e.data, { streamId: usageSummaryStreamId(source) }),
    );
    const relayed = receipts.map((d) => recordedEvent('RequestRelayed', d, { streamId: source }));
    const live = watcher();
    live.w.apply([threshold(500), granted(1000), ...relayed]);
    expect(live.crossings).toHaveLength(1);
    const notice = warned(live.crossings[0]!);
    live.w.apply([notice, ...summary]);
    expect(live.w.balance(USER)).toBe(400);

    // Replayed after the removal: the receipts are gone, the summary comes after the warning.
    const replayed = watcher();
    replayed.w.apply([threshold(500), granted(1000), notice, ...summary]);
    expect(replayed.w.balance(USER)).toBe(400);
    expect(replayed.crossings).toEqual([]);
    expect(replayed.w.pending()).toEqual([]);
    // Still below: no warning; topped up then spent again: warned as usual.
    const again = used(1100);
    replayed.w.apply([used(10), granted(1000), again]);
    expect(replayed.crossings).toEqual([
      { userId: USER, causeEventId: again.id, balance: 290, threshold: 500 },
    ]);
  });
});
