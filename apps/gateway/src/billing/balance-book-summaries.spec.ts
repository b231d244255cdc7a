import type { RecordedEvent } from '@tollgate/event-store';
import {
  usageStreamHourStart,
  usageSummaryEvents,
  usageSummaryStreamId,
  type RequestRelayed,
} from '@tollgate/domain';
import { recordedEvent as recorded } from '@tollgate/testing/recorded-event';
import { tokenCreated } from '@tollgate/testing/token-created';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { BalanceBook } from './balance-book';

/** The reader rule in the balance book: a usage stream's receipts or its summary, never both. */
const ZONE = 'Asia/Shanghai';
const NOON = Date.parse('2026-03-10T04:00:00Z');
const TODAY_HOUR = 'usage-p1-2026031001';
const EARLIER_DAY_HOUR = 'usage-p1-2026030801';

const setup: RecordedEvent[] = [
  recorded('QuotaGranted', { userId: 1, amount: 10_000, reason: 'topup' }),
  recorded('QuotaGranted', { userId: 2, amount: 10_000, reason: 'topup' }),
  recorded('TokenCreated', tokenCreated({ tokenId: 7, userId: 1, remainQuota: 5000 })),
  recorded('BudgetSet', {
    userId: 1,
    periodQuota: 100_000,
    period: 'day',
    previous: { periodQuota: 0, period: '' },
  }),
];
const hourReceipts: Record<string, RequestRelayed['data'][]> = {
  [TODAY_HOUR]: [
    usageReceipt({ userId: 1, tokenId: 7, quota: 300 }),
    usageReceipt({ userId: 1, tokenId: 7, quota: 45, model: 'gpt-4o' }),
    usageReceipt({ userId: 1, tokenId: 0, quota: 20 }),
    usageReceipt({ userId: 2, tokenId: 0, quota: 70 }),
  ],
  [EARLIER_DAY_HOUR]: [usageReceipt({ userId: 1, tokenId: 7, quota: 500 })],
};
const hourStart = (stream: string) => usageStreamHourStart(stream)!;

function receiptsOf(stream: string): RecordedEvent[] {
  return hourReceipts[stream]!.map((data) =>
    recorded('RequestRelayed', data, {
      streamId: stream,
      metadata: { occurredAt: new Date(hourStart(stream) + 60_000).toISOString() },
    }),
  );
}
function summaryOf(stream: string): RecordedEvent[] {
  return usageSummaryEvents(stream, hourStart(stream), hourReceipts[stream]!).map((e) =>
    recorded(e.type, e.data, { streamId: usageSummaryStreamId(stream) }),
  );
}

function replay(events: RecordedEvent[]) {
  const book = new BalanceBook();
  book.useClock(() => NOON, ZONE);
  book.apply([...setup, ...events]);
  return {
    users: [book.settledBalance(1), book.settledBalance(2)],
    token: [book.tokenSettledRemaining(7), book.tokenUsed(7)],
    today: book.periodUse('user', 1, 'day').used,
    tokenToday: book.periodUse('token', 7, 'day').used,
    month: book.periodUse('user', 1, 'month').used,
  };
}

describe('BalanceBook: usage summaries (retention)', () => {
  const streams = [EARLIER_DAY_HOUR, TODAY_HOUR];
  const live = replay(streams.flatMap(receiptsOf));
  const sum = (stream: string, userId: number) =>
    hourReceipts[stream]!.filter((r) => r.userId === userId).reduce((t, r) => t + r.quota, 0);

  it('receipts alone: the figures the summaries must reproduce', () => {
    expect(live.users).toEqual([
      10_000 - sum(TODAY_HOUR, 1) - sum(EARLIER_DAY_HOUR, 1),
      10_000 - sum(TODAY_HOUR, 2),
    ]);
    // The period spend counts each charge at its own time: an earlier day's is not today's.
    expect(live.today).toBe(sum(TODAY_HOUR, 1));
    expect(live.month).toBe(sum(TODAY_HOUR, 1) + sum(EARLIER_DAY_HOUR, 1));
  });

  it('receipts of a stream then its summary: counted once', () => {
    const events = streams.flatMap((s) => [...receiptsOf(s), ...summaryOf(s)]);
    expect(replay(events)).toEqual(live);
  });

  it('only the summary (its stream removed): the same balances, token and period spend', () => {
    expect(replay(streams.flatMap(summaryOf))).toEqual(live);
    // One hour removed, the other still live.
    expect(replay([...summaryOf(EARLIER_DAY_HOUR), ...receiptsOf(TODAY_HOUR)])).toEqual(live);
  });
});
