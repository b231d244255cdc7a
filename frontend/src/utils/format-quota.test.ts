import { describe, expect, it } from 'vitest';
import { abbreviateNumber, formatQuota, formatSpend } from './format-quota';

describe('abbreviateNumber', () => {
  it('keeps numbers below 10,000 as they are', () => {
    expect(abbreviateNumber(0)).toBe('0');
    expect(abbreviateNumber(9_999)).toBe('9999');
  });

  it('uses k from 10,000, M from a million and B from a billion', () => {
    expect(abbreviateNumber(10_000)).toBe('10.0k');
    expect(abbreviateNumber(500_000)).toBe('500.0k');
    expect(abbreviateNumber(1_000_000)).toBe('1.0M');
    expect(abbreviateNumber(2_500_000)).toBe('2.5M');
    expect(abbreviateNumber(1_000_000_000)).toBe('1.0B');
  });

  it('abbreviates negative values by their size', () => {
    expect(abbreviateNumber(-25_000)).toBe('-25.0k');
  });
});

describe('formatQuota', () => {
  const currency = { displayInCurrency: true, quotaPerUnit: 500_000 };
  const raw = { displayInCurrency: false, quotaPerUnit: 500_000 };

  it('shows dollars with two decimals in currency mode', () => {
    expect(formatQuota(500_000, currency)).toBe('$1.00');
    expect(formatQuota(1_234_567, currency)).toBe('$2.47');
    expect(formatQuota(0, currency)).toBe('$0.00');
  });

  it('divides by the configured quota per unit', () => {
    expect(formatQuota(1_000, { displayInCurrency: true, quotaPerUnit: 1_000 })).toBe('$1.00');
  });

  it('falls back to the default unit when the status carries none', () => {
    expect(formatQuota(500_000, { displayInCurrency: true, quotaPerUnit: 0 })).toBe('$1.00');
  });

  it('abbreviates outside currency mode', () => {
    expect(formatQuota(500_000, raw)).toBe('500.0k');
    expect(formatQuota(42, raw)).toBe('42');
  });

  it('puts the sign of a debt before the dollar sign', () => {
    expect(formatQuota(-500_000, currency)).toBe('-$1.00');
    expect(formatQuota(-1_234_567, currency)).toBe('-$2.47');
    expect(formatQuota(-5_000, currency)).toBe('-$0.01');
    expect(formatQuota(-25_000, raw)).toBe('-25.0k');
    expect(formatQuota(-42, raw)).toBe('-42');
  });

  it('never shows a debt below a cent as -$0.00', () => {
    expect(formatQuota(-200, currency)).toBe('-$0.0004');
    expect(formatQuota(-1, currency)).toBe('-$0.000002');
    expect(formatQuota(-2_400, currency)).toBe('-$0.0048');
  });

  it('keeps a positive amount below a cent at two decimals, as before', () => {
    expect(formatQuota(2_400, currency)).toBe('$0.00');
  });
});

describe('formatSpend', () => {
  const currency = { displayInCurrency: true, quotaPerUnit: 500_000 };
  const units = { displayInCurrency: false, quotaPerUnit: 500_000 };

  it.each([
    [0, currency, '$0.00'],
    [1_500_000, currency, '$3.00'],
    [5_000, currency, '$0.01'],
    [14, currency, '$0.000028'],
    [2_400, currency, '$0.0048'],
    [-2_400, currency, '-$0.0048'],
    [14, units, '14'],
    [25_000, units, '25.0k'],
  ])('%d → %s', (quota, display, shown) => {
    expect(formatSpend(quota, display)).toBe(shown);
  });
});
