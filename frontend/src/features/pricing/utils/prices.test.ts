import { QuotaType } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { formatPriceAmount, priceCells, ratioOf } from './prices';

const DOLLARS = { displayInCurrency: true, quotaPerUnit: 500_000 };
const QUOTA = { displayInCurrency: false, quotaPerUnit: 500_000 };

const ratioRow = (model_ratio: number, completion_ratio: number) => ({
  quota_type: QuotaType.Ratio,
  model_ratio,
  completion_ratio,
  model_price: 0,
});
const perCallRow = (model_price: number) => ({
  quota_type: QuotaType.PerCall,
  model_ratio: 0,
  completion_ratio: 0,
  model_price,
});

describe('priceCells: the pricing page formulas', () => {
  // prompt = model ratio × 2 × group ratio, completion = prompt × completion ratio (per 1M tokens);
  // per call = model price × group ratio. Quota = dollars × QuotaPerUnit.
  it.each([
    [
      'ratio 1, group 1',
      ratioRow(1, 1),
      1,
      DOLLARS,
      { mode: 'ratio', prompt: '$2.00', completion: '$2.00' },
    ],
    [
      'gpt-4o',
      ratioRow(1.25, 4),
      1,
      DOLLARS,
      { mode: 'ratio', prompt: '$2.50', completion: '$10.00' },
    ],
    [
      'no float noise',
      ratioRow(0.075, 4),
      1,
      DOLLARS,
      { mode: 'ratio', prompt: '$0.15', completion: '$0.60' },
    ],
    [
      'group ratio 0.5',
      ratioRow(15, 2),
      0.5,
      DOLLARS,
      { mode: 'ratio', prompt: '$15.00', completion: '$30.00' },
    ],
    [
      'group ratio 2',
      ratioRow(0.1, 3),
      2,
      DOLLARS,
      { mode: 'ratio', prompt: '$0.40', completion: '$1.20' },
    ],
    [
      'tiny ratio',
      ratioRow(0.0001, 1),
      1,
      DOLLARS,
      { mode: 'ratio', prompt: '$0.0002', completion: '$0.0002' },
    ],
    [
      'free group',
      ratioRow(5, 2),
      0,
      DOLLARS,
      { mode: 'ratio', prompt: '$0.00', completion: '$0.00' },
    ],
    [
      'ratio in quota',
      ratioRow(1.25, 4),
      1,
      QUOTA,
      { mode: 'ratio', prompt: '1,250,000', completion: '5,000,000' },
    ],
    [
      'ratio in quota, group 0.8',
      ratioRow(0.075, 4),
      0.8,
      QUOTA,
      { mode: 'ratio', prompt: '60,000', completion: '240,000' },
    ],
    ['per call', perCallRow(0.04), 1, DOLLARS, { mode: 'price', perCall: '$0.04' }],
    ['per call, group 0.5', perCallRow(0.1), 0.5, DOLLARS, { mode: 'price', perCall: '$0.05' }],
    ['per call in quota', perCallRow(0.1), 0.5, QUOTA, { mode: 'price', perCall: '25,000' }],
    [
      'per call, custom unit',
      perCallRow(1),
      1,
      { displayInCurrency: false, quotaPerUnit: 1000 },
      { mode: 'price', perCall: '1,000' },
    ],
    ['free per call', perCallRow(0), 1, DOLLARS, { mode: 'price', perCall: '$0.00' }],
  ] as const)('%s', (_name, row, groupRatio, display, expected) => {
    expect(priceCells(row, groupRatio, display)).toEqual(expected);
  });
});

describe('formatPriceAmount and ratioOf', () => {
  it('falls back to 500000 quota per dollar when QuotaPerUnit is not positive', () => {
    expect(formatPriceAmount(1, { displayInCurrency: false, quotaPerUnit: 0 })).toBe('500,000');
  });

  it('bills a group missing from GroupRatio at 1', () => {
    expect(ratioOf({ vip: 0.8 }, 'vip')).toBe(0.8);
    expect(ratioOf({ vip: 0.8 }, 'other')).toBe(1);
  });
});
