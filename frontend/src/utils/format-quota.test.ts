import { describe, expect, it } from 'vitest';
import { formatQuota, quotaToDollars, tickDecimals } from './format-quota';

const currency = { displayInCurrency: true, quotaPerUnit: 500_000 };
const units = { displayInCurrency: false, quotaPerUnit: 500_000 };

describe('formatQuota in currency mode', () => {
  it.each([
    [0, '$0.00'],
    [500_000, '$1.00'],
    [6_175_000, '$12.35'],
    [617_250_000, '$1,234.50'],
    [500_000_000_000, '$1,000,000.00'],
    [250_000, '$0.50'],
    [62_500, '$0.125'],
    [2_050, '$0.0041'],
    [206, '$0.000412'],
    [1, '$0.000002'],
    [0.2, '$0.0000004'],
    [0.0002, '$0.0000000004'],
  ])('%d units → %s', (quota, shown) => {
    expect(formatQuota(quota, currency)).toBe(shown);
  });

  it('never shows a non-zero amount as zero', () => {
    for (const quota of [0.01, 0.5, 1, 3, 49, 2_499, 4_999])
      expect(formatQuota(quota, currency)).not.toMatch(/^-?\$0\.0+$/);
  });

  it('puts the sign of a debt before the dollar sign', () => {
    expect(formatQuota(-500_000, currency)).toBe('-$1.00');
    expect(formatQuota(-206, currency)).toBe('-$0.000412');
    expect(formatQuota(-617_250_000, currency)).toBe('-$1,234.50');
  });

  it('divides by the configured quota per unit, or the default one', () => {
    expect(formatQuota(1_000, { displayInCurrency: true, quotaPerUnit: 1_000 })).toBe('$1.00');
    expect(formatQuota(500_000, { displayInCurrency: true, quotaPerUnit: 0 })).toBe('$1.00');
    expect(quotaToDollars(250_000, currency)).toBe(0.5);
  });

  it('keeps a fixed precision when asked (an axis)', () => {
    expect(formatQuota(1_250, currency, { decimals: 4 })).toBe('$0.0025');
    expect(formatQuota(0, currency, { decimals: 4 })).toBe('$0.00');
    expect(formatQuota(500_000, currency, { decimals: 4 })).toBe('$1.00');
  });

  it('shows no number it cannot read', () => {
    expect(formatQuota(Number.NaN, currency)).toBe('—');
  });
});

describe('formatQuota in units mode', () => {
  it.each([
    [0, '0'],
    [42, '42'],
    [50_000_000, '50,000,000'],
    [-25_000, '-25,000'],
    [0.75, '0.75'],
  ])('%d → %s', (quota, shown) => {
    expect(formatQuota(quota, units)).toBe(shown);
  });
});

describe('tickDecimals', () => {
  it('tells sub-cent dollar ticks apart', () => {
    const ticks = [0, 1_250, 2_500, 3_750, 5_000];
    const decimals = tickDecimals(ticks, currency);
    expect(decimals).toBe(4);
    expect(ticks.map((tick) => formatQuota(tick, currency, { decimals }))).toEqual([
      '$0.00',
      '$0.0025',
      '$0.005',
      '$0.0075',
      '$0.01',
    ]);
  });

  it('keeps two decimals for whole-cent ticks and none for whole units', () => {
    expect(tickDecimals([0, 500_000, 1_000_000], currency)).toBe(2);
    expect(tickDecimals([0, 1_000, 2_000], units)).toBe(0);
    expect(tickDecimals([0, 0.5, 1], units)).toBe(1);
  });
});
