import { describe, expect, it } from 'vitest';
import { spendAxis, stackedMax } from './spend-axis';

const currency = { displayInCurrency: true, quotaPerUnit: 500_000 };
const units = { displayInCurrency: false, quotaPerUnit: 500_000 };

describe('spendAxis', () => {
  it('writes sub-cent ticks apart from each other', () => {
    const axis = spendAxis(2_050, currency);
    const labels = axis.ticks.map(axis.format);
    expect(labels).toEqual(['$0.00', '$0.002', '$0.004', '$0.006']);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('reaches past the tallest bucket', () => {
    const axis = spendAxis(6_000, currency);
    expect(axis.ticks.at(-1)).toBeGreaterThanOrEqual(6_000);
    expect(axis.ticks.map(axis.format)).toEqual(['$0.00', '$0.005', '$0.01', '$0.015']);
  });

  it('writes quarter steps at four decimals', () => {
    const axis = spendAxis(5_000, currency);
    expect(axis.ticks.map(axis.format)).toEqual(['$0.00', '$0.0025', '$0.005', '$0.0075', '$0.01']);
  });

  it('counts whole units in units mode', () => {
    const axis = spendAxis(9_000, units);
    expect(axis.ticks.map(axis.format)).toEqual(['0', '2,500', '5,000', '7,500', '10,000']);
  });

  it('has an axis to show when nothing was spent', () => {
    const axis = spendAxis(0, currency);
    expect(axis.ticks.length).toBeGreaterThan(1);
    expect(new Set(axis.ticks.map(axis.format)).size).toBe(axis.ticks.length);
  });
});

describe('stackedMax', () => {
  it('sums the models of each bucket', () => {
    const models = [
      { key: 'm0', name: 'a' },
      { key: 'm1', name: 'b' },
    ];
    const points = [
      { time: 0, label: '', m0: 1, m1: 2 },
      { time: 1, label: '', m0: 5, m1: 0 },
    ];
    expect(stackedMax(points, models)).toBe(5);
  });
});
