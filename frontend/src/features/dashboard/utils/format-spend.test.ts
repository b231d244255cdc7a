import { describe, expect, it } from 'vitest';
import { formatSpend } from './format-spend';

const currency = { displayInCurrency: true, quotaPerUnit: 500_000 };
const units = { displayInCurrency: false, quotaPerUnit: 500_000 };

describe('formatSpend', () => {
  it.each([
    [0, currency, '$0.00'],
    [1_500_000, currency, '$3.00'],
    [5_000, currency, '$0.01'],
    [14, currency, '$0.000028'],
    [2_400, currency, '$0.0048'],
    [14, units, '14'],
    [25_000, units, '25.0k'],
  ])('%d → %s', (quota, display, shown) => {
    expect(formatSpend(quota, display)).toBe(shown);
  });
});
