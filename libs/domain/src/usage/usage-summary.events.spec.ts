import { usageReceipt } from '@tollgate/testing';
import {
  summarizeReceipts,
  USAGE_SUMMARY_CHUNK_ROWS,
  usageStreamHourStart,
  usageSummaryEvents,
} from './usage-summary.events';

describe('summarizeReceipts', () => {
  it('adds up the receipts of one payer, token, channel, model and group, exactly', () => {
    const rows = summarizeReceipts([
      usageReceipt({ userId: 2, tokenId: 5, quota: 7, promptTokens: 3, completionTokens: 4 }),
      usageReceipt({ userId: 2, tokenId: 5, quota: 11, promptTokens: 1, completionTokens: 2 }),
      usageReceipt({ userId: 2, tokenId: 6, quota: 1 }),
      usageReceipt({ userId: 3, tokenId: 5, quota: 2, model: 'gpt-4o' }),
    ]);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.userId === 2 && r.tokenId === 5)).toMatchObject({
      requests: 2,
      promptTokens: 4,
      completionTokens: 6,
      quota: 18,
    });
    expect(rows.reduce((sum, r) => sum + r.quota, 0)).toBe(21);
  });

  it('gives the same rows whatever the receipts order', () => {
    const receipts = [1, 2, 3, 4].map((userId) => usageReceipt({ userId, quota: userId }));
    expect(summarizeReceipts([...receipts].reverse())).toEqual(summarizeReceipts(receipts));
  });
});

describe('usageSummaryEvents', () => {
  it('splits a busy hour into numbered chunks', () => {
    const receipts = Array.from({ length: USAGE_SUMMARY_CHUNK_ROWS + 1 }, (_, i) =>
      usageReceipt({ userId: i + 1, quota: 1 }),
    );
    const events = usageSummaryEvents('usage-p1-2026120100', 0, receipts);
    expect(events.map((e) => [e.data.chunk, e.data.chunks, e.data.rows.length])).toEqual([
      [0, 2, USAGE_SUMMARY_CHUNK_ROWS],
      [1, 2, 1],
    ]);
  });
});

describe('usageStreamHourStart', () => {
  it('reads the hour of a usage stream and nothing else', () => {
    expect(usageStreamHourStart('usage-p1-2026120105')).toBe(Date.UTC(2026, 11, 1, 5));
    expect(usageStreamHourStart('usage-host-a-1-2026120105')).toBe(Date.UTC(2026, 11, 1, 5));
    expect(usageStreamHourStart('usagesum-usage-p1-2026120105')).toBeNull();
    expect(usageStreamHourStart('user-1')).toBeNull();
  });
});
