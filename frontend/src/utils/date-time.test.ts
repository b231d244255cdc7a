import { describe, expect, it } from 'vitest';
import { formatDateTime, parseDateTime, startOfDay } from './date-time';

describe('date-time', () => {
  it('formats and parses local times back and forth', () => {
    const seconds = Math.floor(new Date(2026, 10, 23, 9, 5, 7).getTime() / 1000);
    expect(formatDateTime(seconds)).toBe('2026-11-23 09:05:07');
    expect(parseDateTime('2026-11-23 09:05:07')).toBe(seconds);
  });

  it('accepts a date alone or without seconds', () => {
    expect(parseDateTime('2026-11-23')).toBe(new Date(2026, 10, 23).getTime() / 1000);
    expect(parseDateTime('2026-11-23 09:05')).toBe(new Date(2026, 10, 23, 9, 5).getTime() / 1000);
  });

  it('refuses what is not a real date', () => {
    for (const text of [
      '',
      'tomorrow',
      '2026-13-01',
      '2026-02-31',
      '2026-11-23 25:00',
      '1/2/2026',
    ]) {
      expect(parseDateTime(text)).toBeNull();
    }
  });

  it('finds the start of the day', () => {
    const noon = new Date(2026, 0, 5, 12, 30).getTime() / 1000;
    expect(startOfDay(noon)).toBe(new Date(2026, 0, 5).getTime() / 1000);
  });
});
