import type { QuotaDataRowDto } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import {
  bucketLabel,
  bucketStart,
  buildUsageSeries,
  defaultRange,
  granularityOf,
  summarizeUsage,
  type Granularity,
} from './usage-series';

/** Local time → unix seconds (the console groups by the reader's clock). */
const at = (y: number, m: number, d: number, h = 0, min = 0) =>
  new Date(y, m - 1, d, h, min).getTime() / 1000;

const row = (
  model_name: string,
  created_at: number,
  quota: number,
  count = 1,
  token_used = 10,
): QuotaDataRowDto => ({ model_name, created_at, quota, count, token_used });

// Wednesday 2026-01-14 … Tuesday 2026-01-20.
const rows: QuotaDataRowDto[] = [
  row('gpt-4o', at(2026, 1, 14, 8), 100, 2, 20),
  row('gpt-4o', at(2026, 1, 14, 9), 50),
  row('gpt-3.5-turbo', at(2026, 1, 14, 9), 10, 3, 30),
  row('gpt-4o', at(2026, 1, 15, 23), 5),
  row('gpt-3.5-turbo', at(2026, 1, 19, 0), 7), // next Monday
];

describe('bucketStart / bucketLabel', () => {
  it.each<[Granularity, number, number, string]>([
    ['hour', at(2026, 1, 14, 9, 59), at(2026, 1, 14, 9), '01-14 09:00'],
    ['day', at(2026, 1, 14, 9, 59), at(2026, 1, 14), '2026-01-14'],
    ['week', at(2026, 1, 14, 9), at(2026, 1, 12), '2026-01-12'],
    ['week', at(2026, 1, 18, 23), at(2026, 1, 12), '2026-01-12'], // Sunday → its Monday
    ['week', at(2026, 1, 19, 0), at(2026, 1, 19), '2026-01-19'],
  ])('%s of %d starts at %d (%s)', (granularity, seconds, start, label) => {
    expect(bucketStart(seconds, granularity)).toBe(start);
    expect(bucketLabel(start, granularity)).toBe(label);
  });
});

describe('buildUsageSeries', () => {
  it.each<[Granularity, Array<[string, number, number]>]>([
    [
      'hour',
      [
        ['01-14 08:00', 100, 0],
        ['01-14 09:00', 50, 10],
        ['01-15 23:00', 5, 0],
        ['01-19 00:00', 0, 7],
      ],
    ],
    [
      'day',
      [
        ['2026-01-14', 150, 10],
        ['2026-01-15', 5, 0],
        ['2026-01-19', 0, 7],
      ],
    ],
    [
      'week',
      [
        ['2026-01-12', 155, 10],
        ['2026-01-19', 0, 7],
      ],
    ],
  ])('per %s: quota per model and bucket', (granularity, expected) => {
    const series = buildUsageSeries(rows, granularity);
    expect(series.models).toEqual([
      { key: 'm0', name: 'gpt-4o' },
      { key: 'm1', name: 'gpt-3.5-turbo' },
    ]);
    expect(series.quota.map((p) => [p.label, p.m0, p.m1])).toEqual(expected);
  });

  it('counts requests per bucket and totals the model share', () => {
    const series = buildUsageSeries(rows, 'day');
    expect(series.count.map((p) => [p.label, p.m0, p.m1])).toEqual([
      ['2026-01-14', 3, 3],
      ['2026-01-15', 1, 0],
      ['2026-01-19', 0, 1],
    ]);
    expect(series.share).toEqual([
      { key: 'm0', name: 'gpt-4o', count: 4, quota: 155, tokens: 40 },
      { key: 'm1', name: 'gpt-3.5-turbo', count: 4, quota: 17, tokens: 40 },
    ]);
  });

  it('fills the empty buckets of the range with zeros', () => {
    const series = buildUsageSeries(rows, 'day', {
      start: at(2026, 1, 13, 12),
      end: at(2026, 1, 20, 1),
    });
    expect(series.quota.map((p) => p.label)).toEqual([
      '2026-01-13',
      '2026-01-14',
      '2026-01-15',
      '2026-01-16',
      '2026-01-17',
      '2026-01-18',
      '2026-01-19',
      '2026-01-20',
    ]);
    expect(series.quota[3]).toMatchObject({ m0: 0, m1: 0 });
  });

  it('draws nothing without rows', () => {
    expect(buildUsageSeries([], 'hour', { start: 0, end: 86_400 })).toEqual({
      models: [],
      quota: [],
      count: [],
      share: [],
    });
  });
});

describe('summarizeUsage', () => {
  it('totals and averages per minute over the range', () => {
    const summary = summarizeUsage(rows, { start: 0, end: 3600 });
    expect(summary).toEqual({ quota: 172, count: 8, tokens: 80, rpm: 0.133, tpm: 1.333 });
    expect(summarizeUsage([], { start: 5, end: 5 })).toEqual({
      quota: 0,
      count: 0,
      tokens: 0,
      rpm: 0,
      tpm: 0,
    });
  });
});

describe('defaults from DataExportDefaultTime', () => {
  it.each<[string | undefined, Granularity, number]>([
    ['hour', 'hour', 24 * 3600],
    ['day', 'day', 7 * 24 * 3600],
    ['week', 'week', 30 * 24 * 3600],
    ['', 'hour', 24 * 3600],
    [undefined, 'hour', 24 * 3600],
  ])('%s → %s granularity, %d s back', (option, granularity, span) => {
    expect(granularityOf(option)).toBe(granularity);
    expect(defaultRange(granularity, 1_000_000_000)).toEqual({
      start_timestamp: 1_000_000_000 - span,
      end_timestamp: 1_000_000_000 + 3600,
    });
  });
});
