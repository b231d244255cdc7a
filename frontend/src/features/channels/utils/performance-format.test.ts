import { describe, expect, it } from 'vitest';
import { formatLatency, formatRatio } from './performance-format';

describe('performance format', () => {
  it('shows milliseconds under a second, seconds above, a dash without samples', () => {
    expect(formatLatency(338)).toBe('338 ms');
    expect(formatLatency(1709)).toBe('1.7 s');
    expect(formatLatency(null)).toBe('—');
  });

  it('shows ratios as percentages', () => {
    expect(formatRatio(0.125)).toBe('12.5%');
    expect(formatRatio(1)).toBe('100.0%');
  });
});
